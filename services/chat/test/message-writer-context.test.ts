import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { before, describe, it } from 'node:test';
import { Types } from 'mongoose';
import { MessageWriter, type MessageDraft } from '../src/store/message-writer.ts';
import { RecentMessages } from '../src/store/recent-messages.ts';
import { chatDbHooks, quietLogger } from './chat-db.ts';

/**
 * With tracing on, a batch's writes belong to its first send: the writer runs
 * them in that send's async context, not in the context of whatever
 * scheduled the flush (the batch before, under load).
 */
describe('the async context of a batch of message writes', () => {
  const chat = chatDbHooks(import.meta.url);
  const sender = new AsyncLocalStorage<string>();
  /** Which send's context each insert of messages ran in. */
  const insertedIn: Array<string | undefined> = [];

  before(() => {
    chat.db.connection.set('debug', (collection: string, method: string) => {
      if (collection === 'messages' && method === 'insertMany') insertedIn.push(sender.getStore());
    });
  });

  async function sendTwo(keepSendContext: boolean): Promise<Array<string | undefined>> {
    insertedIn.length = 0;
    const converseId = new Types.ObjectId();
    await chat.models.converses.collection.insertOne({ _id: converseId, lastSeq: 0 });
    // One message per batch: the second batch is scheduled when the first is done.
    const writer = new MessageWriter(
      chat.models,
      { windowMs: 0, maxBatch: 1, keepSendContext },
      quietLogger,
      new RecentMessages(chat.models, 0),
    );
    const draft = (content: string): MessageDraft => ({
      converseId,
      authorId: new Types.ObjectId(),
      content,
      mentions: [],
      attachments: [],
    });
    await Promise.all([
      sender.run('first', () => writer.write(draft('one'))),
      sender.run('second', () => writer.write(draft('two'))),
    ]);
    return [...insertedIn];
  }

  it("writes each batch in its first send's context when asked", async () => {
    assert.deepEqual(await sendTwo(true), ['first', 'second']);
  });

  it('otherwise in the context that scheduled the flush (what tracing would misplace)', async () => {
    assert.deepEqual(await sendTwo(false), ['first', 'first']);
  });
});
