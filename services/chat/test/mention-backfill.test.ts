import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Types } from 'mongoose';
import { backfillMentionSeqs } from '../src/store/mention-seqs.ts';
import { type ReadDoc } from '../src/models.ts';
import { chatDbHooks, quietLogger } from './chat-db.ts';

const logger = quietLogger;

describe('mentions of messages written before they were kept', () => {
  const chat = chatDbHooks(import.meta.url);

  it('keeps the unread ones once, leaving read and deleted ones out', async () => {
    const [converse, other] = [new Types.ObjectId(), new Types.ObjectId()];
    const [author, reader, fresh] = [new Types.ObjectId(), new Types.ObjectId(), new Types.ObjectId()];
    const message = (converseId: Types.ObjectId, seq: number, mentions: Types.ObjectId[], deleted = false) => ({
      converseId,
      seq,
      authorId: author,
      content: `m${seq}`,
      mentions,
      attachments: [],
      reactionCounts: {},
      createdAt: new Date(),
      ...(deleted ? { deleted: true } : {}),
    });
    // As an older version stored them: mentions on the messages, read positions without kept seqs.
    await chat.models.messages.collection.insertMany([
      message(converse, 1, [reader]),
      message(converse, 2, [reader, fresh]),
      message(converse, 3, []),
      message(converse, 4, [reader]),
      message(converse, 5, [reader], true),
      message(other, 1, [fresh]),
    ]);
    await chat.models.reads.collection.insertOne({ userId: reader, converseId: converse, readSeq: 2 });

    await backfillMentionSeqs(chat.models, logger);
    const kept = async (userId: Types.ObjectId, converseId: Types.ObjectId) => {
      const read = await chat.models.reads.findOne({ userId, converseId }).lean<ReadDoc>();
      return { readSeq: read?.readSeq, mentionSeqs: [...(read?.mentionSeqs ?? [])].sort((a, b) => a - b) };
    };
    assert.deepEqual(
      await kept(reader, converse),
      { readSeq: 2, mentionSeqs: [4] },
      'read (1, 2) and deleted (5) left out',
    );
    assert.deepEqual(
      await kept(fresh, converse),
      { readSeq: 0, mentionSeqs: [2] },
      'a user who never read starts at 0',
    );
    assert.deepEqual(await kept(fresh, other), { readSeq: 0, mentionSeqs: [1] });
    assert.ok(await chat.models.migrations.exists({ _id: 'mention-seqs' }), 'marked done');

    // Done once: a later start changes nothing, even where the data would say otherwise.
    await chat.models.reads.updateOne({ userId: reader, converseId: converse }, { $set: { mentionSeqs: [] } });
    await backfillMentionSeqs(chat.models, logger);
    assert.deepEqual(await kept(reader, converse), { readSeq: 2, mentionSeqs: [] });
  });
});
