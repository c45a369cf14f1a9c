import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Types } from 'mongoose';
import type { MessageDoc } from '../src/models.ts';
import { RecentMessages } from '../src/recent-messages.ts';
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
});
