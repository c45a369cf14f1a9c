import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { backingBytesOf } from '@im/sdk';
import { Types } from 'mongoose';
import type { MessageDoc } from '../src/models.ts';
import { estimatedBytes, RecentMessages } from '../src/store/recent-messages.ts';
import { chatDbHooks } from './chat-db.ts';

describe('the newest messages a chat node keeps', () => {
  const chat = chatDbHooks(import.meta.url);
  const finds: string[] = [];

  before(() => {
    chat.db.connection.set('debug', (collection: string, method: string) => {
      if (collection === 'messages' && method === 'find') finds.push(method);
    });
  });

  /** A converse holding messages 1..count, its counter at count. */
  async function converse(count: number): Promise<string> {
    const id = new Types.ObjectId();
    await chat.models.converses.collection.insertOne({ _id: id, lastSeq: count });
    const authorId = new Types.ObjectId();
    await chat.models.messages.collection.insertMany(
      Array.from({ length: count }, (_, i) => ({
        converseId: id,
        seq: i + 1,
        authorId,
        content: `m${i + 1}`,
        mentions: [],
        attachments: [],
        reactionCounts: {},
        createdAt: new Date(),
      })),
    );
    return id.toHexString();
  }

  const readNewest = async (recent: RecentMessages, id: string, limit = 5) =>
    (await recent.read(id, { limit }))?.map((d) => d.content);

  it('keeps the newer version when two changes of one message bump the converse in the other order', async () => {
    const recent = new RecentMessages(chat.models, 1000);
    const id = await converse(3);
    assert.deepEqual(await readNewest(recent, id), ['m1', 'm2', 'm3']);
    const edit = (content: string) =>
      chat.models.messages
        .findOneAndUpdate({ converseId: id, seq: 2 }, { $set: { content }, $inc: { v: 1 } }, { new: true })
        .lean<MessageDoc>();
    const first = (await edit('first edit'))!;
    const second = (await edit('second edit'))!;
    await recent.changed(second);
    await recent.changed(first);
    finds.length = 0;
    assert.deepEqual(await readNewest(recent, id), ['m1', 'second edit', 'm3']);
    assert.equal(finds.length, 0, 'answered from memory');
  });

  it('drops a tail another writer moved past, and refills it once for concurrent readers', async () => {
    const recent = new RecentMessages(chat.models, 1000);
    const id = await converse(2);
    await readNewest(recent, id);
    // Another node: a change it made moves rev without this node hearing of it.
    await chat.models.messages.updateOne(
      { converseId: id, seq: 1 },
      { $set: { content: 'elsewhere' }, $inc: { v: 1 } },
    );
    await chat.models.converses.updateOne({ _id: id }, { $inc: { rev: 1 } });
    finds.length = 0;
    const answers = await Promise.all(Array.from({ length: 10 }, () => readNewest(recent, id)));
    for (const answer of answers) assert.deepEqual(answer, ['elsewhere', 'm2']);
    assert.equal(finds.length, 1, 'ten readers of one stamp share one read');
  });

  it('keeps at most its capacity, least recently used converses first, and nothing at 0', async () => {
    const recent = new RecentMessages(chat.models, 250);
    const [a, b] = [await converse(150), await converse(150)];
    await readNewest(recent, a);
    await readNewest(recent, b);
    finds.length = 0;
    await readNewest(recent, b);
    assert.equal(finds.length, 0, 'the latest converse is kept');
    await readNewest(recent, a);
    assert.equal(finds.length, 1, 'the older one made room');

    const off = new RecentMessages(chat.models, 0);
    assert.equal(await off.read(a, { limit: 5 }), undefined);
    assert.deepEqual(await off.read(a, { after: 150, limit: 5 }, await off.stampOf(a)), [], 'nothing above lastSeq');
  });

  it('keeps no shared buffer slab alive: the ids of kept messages are backed by the message alone', async () => {
    const recent = new RecentMessages(chat.models, 1000);
    const id = await converse(3);
    const read = (await recent.read(id, { limit: 5 }))!;
    // The driver's ids are slices of Node's 64 KiB pool; a kept one would hold its whole slab.
    const fresh = new Types.ObjectId();
    assert.ok(backingBytesOf(fresh) > 12 * 4, 'a new id comes from the shared pool');
    const sent: MessageDoc = {
      ...read[2]!,
      _id: fresh,
      seq: 4,
      authorId: new Types.ObjectId(),
      mentions: [new Types.ObjectId()],
      content: 'm4',
    };
    await chat.models.converses.updateOne({ _id: id }, { $set: { lastSeq: 4 } });
    recent.appended(id, [sent]);
    finds.length = 0;
    const kept = (await recent.read(id, { limit: 5 }))!;
    assert.equal(finds.length, 0, 'answered from memory');
    assert.deepEqual(
      kept.map((d) => d.content),
      ['m1', 'm2', 'm3', 'm4'],
    );
    assert.equal(kept[3]!._id.toHexString(), fresh.toHexString(), 'the same ids');
    for (const doc of kept) {
      const ids = [doc._id, doc.converseId, doc.authorId, ...(doc.mentions ?? [])];
      for (const oid of ids)
        assert.ok(backingBytesOf(oid) <= 12 * ids.length, `${backingBytesOf(oid)} bytes behind an id`);
    }
  });

  it('lets go of converses unused for the idle time, and of the least recently used past its bytes', async () => {
    let now = 1_000_000;
    const recent = new RecentMessages(chat.models, 10_000, { idleMs: 60_000, now: () => now });
    const [a, b] = [await converse(20), await converse(20)];
    await readNewest(recent, a);
    now += 30_000;
    await readNewest(recent, b);
    assert.equal(recent.kept.converses, 2);
    now += 40_000;
    // a was last used 70 s ago: any use of the cache lets it go.
    finds.length = 0;
    await readNewest(recent, b);
    assert.deepEqual(recent.kept, { converses: 1, messages: 20, bytes: recent.kept.bytes });
    assert.equal(finds.length, 0, 'b is still kept');

    const one = estimatedBytes({ content: 'm10', mentions: [], attachments: [] } as unknown as MessageDoc);
    const small = new RecentMessages(chat.models, 10_000, { maxBytes: 30 * one });
    await readNewest(small, a);
    await readNewest(small, b);
    assert.equal(small.kept.converses, 1, 'two converses of 20 messages pass 30 messages of bytes');
    assert.ok(small.kept.bytes <= 30 * one);
    finds.length = 0;
    await readNewest(small, b);
    assert.equal(finds.length, 0, 'the one used last is the one kept');
  });
});
