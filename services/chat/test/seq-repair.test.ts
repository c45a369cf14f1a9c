import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Types } from 'mongoose';
import { chatDbHooks, quietLogger } from './chat-db.ts';
import { fillSpentSeqs } from '../src/store/seq-repair.ts';

const logger = quietLogger;

describe('sequence numbers a stopped node reserved but never wrote', () => {
  const chat = chatDbHooks(import.meta.url);

  /** A converse whose counter is at `lastSeq`, holding messages with the given seqs. */
  async function converse(lastSeq: number, seqs: number[], lastMessageAt: Date): Promise<Types.ObjectId> {
    const id = new Types.ObjectId();
    await chat.models.converses.collection.insertOne({ _id: id, lastSeq, lastMessageAt });
    const authorId = new Types.ObjectId();
    if (seqs.length > 0) {
      await chat.models.messages.collection.insertMany(
        seqs.map((seq) => ({
          converseId: id,
          seq,
          authorId,
          content: `m${seq}`,
          mentions: [],
          attachments: [],
          reactionCounts: {},
          createdAt: lastMessageAt,
        })),
      );
    }
    return id;
  }

  const seqsOf = async (id: Types.ObjectId) =>
    (await chat.models.messages.collection.find({ converseId: id }).sort({ seq: 1 }).toArray()).map((m) => ({
      seq: m.seq as number,
      deleted: m.deleted === true,
    }));

  it('range: fills every gap with tombstones, leaves whole converses and later reservations alone, once', async () => {
    const crash = new Date(Date.now() - 5_000);
    const gappy = await converse(6, [1, 2, 4], crash);
    const whole = await converse(3, [1, 2, 3], crash);
    const reservedNow = await converse(4, [1, 2], new Date(Date.now() + 60_000));

    assert.equal(await fillSpentSeqs(chat.models, { reservedBefore: new Date() }, logger, 500, 'range'), 3);
    assert.deepEqual(await seqsOf(gappy), [
      { seq: 1, deleted: false },
      { seq: 2, deleted: false },
      { seq: 3, deleted: true },
      { seq: 4, deleted: false },
      { seq: 5, deleted: true },
      { seq: 6, deleted: true },
    ]);
    assert.equal((await seqsOf(whole)).length, 3);
    // Reserved after the cut-off: a live node may still be writing those.
    assert.equal((await seqsOf(reservedNow)).length, 2);
    assert.equal(await fillSpentSeqs(chat.models, { reservedBefore: new Date() }, logger, 500, 'range'), 0);
  });

  it('range with since (the periodic check in a cluster): only converses written to since the last check', async () => {
    const lastCheck = new Date(Date.now() - 60_000);
    const before = await converse(3, [1], new Date(lastCheck.getTime() - 1_000));
    const after = await converse(3, [1], new Date(Date.now() - 1_000));

    assert.equal(
      await fillSpentSeqs(chat.models, { reservedBefore: new Date(), since: lastCheck }, logger, 500, 'range'),
      2,
    );
    assert.equal((await seqsOf(before)).length, 1, 'checked before: left to that check');
    // The first check of a node (no since) looks at every recent converse.
    assert.equal(await fillSpentSeqs(chat.models, { reservedBefore: new Date() }, logger, 500, 'range'), 2);
    assert.equal((await seqsOf(before)).length, 3);
    assert.deepEqual(
      (await seqsOf(after)).map((m) => [m.seq, m.deleted]),
      [
        [1, false],
        [2, true],
        [3, true],
      ],
    );
  });

  it('tail (one writer): fills the lost last batch by exact lookups, down to the first written seq', async () => {
    const crash = new Date(Date.now() - 2_000);
    const lostTail = await converse(5, [1, 2, 3], crash);
    const allLost = await converse(2, [], crash);

    assert.equal(await fillSpentSeqs(chat.models, { reservedBefore: new Date() }, logger, 500, 'tail'), 4);
    assert.deepEqual(
      (await seqsOf(lostTail)).map((m) => [m.seq, m.deleted]),
      [
        [1, false],
        [2, false],
        [3, false],
        [4, true],
        [5, true],
      ],
    );
    assert.deepEqual(
      (await seqsOf(allLost)).map((m) => [m.seq, m.deleted]),
      [
        [1, true],
        [2, true],
      ],
    );
    assert.equal(await fillSpentSeqs(chat.models, { reservedBefore: new Date() }, logger, 500, 'tail'), 0);
  });
});
