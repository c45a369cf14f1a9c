import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Message } from '@im/protocol';
import type { Connection } from 'mongoose';
import { collectionCalls } from '../support/collection-calls.ts';
import { expectations, groupWithMembers, startApi, type ApiHarness } from './harness.ts';

/** The messages-collection methods `work` called. */
const messageCalls = (connection: Connection, work: () => Promise<unknown>) =>
  collectionCalls(connection, 'messages', work);

/**
 * Every way a stored message changes goes through the chat service's
 * message store, which moves the message's version and the recent tail
 * inside the write. Here each change is followed by a read of the newest
 * page that the kept tail answers (no message read): a change that skipped
 * the tail would show its old version.
 */
describe('the message store keeps the recent tail current on every write path', () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url);
  });
  after(async () => api?.close());
  const { ok } = expectations(() => api);

  it('edit, react, unreact, pin, unpin, thread reply and its deletion, vote, close, delete: each shows at once', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1, 'Tail');
    const bob = members[0]!;
    const send = (body: Record<string, unknown>) =>
      ok<Message>('POST', `/api/converses/${converseId}/messages`, owner, body, 201);
    const first = await send({ content: 'first' });
    const poll = await send({ poll: { question: 'Tea?', options: ['yes', 'no'] } });
    const last = await send({ content: 'last' });

    /** The newest page as bob reads it, by id; it must come from the kept tail. */
    const newest = async (): Promise<Map<string, Message>> => {
      let page: Message[] = [];
      const calls = await messageCalls(api.node.app.mongo!, async () => {
        page = await ok<Message[]>('GET', `/api/converses/${converseId}/messages?limit=50`, bob);
      });
      assert.deepEqual(calls, [], 'the newest page is answered from the kept tail');
      return new Map(page.map((m) => [m.id, m]));
    };
    assert.equal((await newest()).size, 3);

    await ok('PATCH', `/api/messages/${first.id}`, owner, { content: 'first, edited' });
    let page = await newest();
    assert.equal(page.get(first.id)!.content, 'first, edited');
    assert.ok(page.get(first.id)!.editedAt);

    const thumbs = `/api/messages/${first.id}/reactions/${encodeURIComponent('👍')}`;
    await ok('PUT', thumbs, bob);
    assert.deepEqual((await newest()).get(first.id)!.reactions, [{ emoji: '👍', count: 1, me: true }]);
    await ok('DELETE', thumbs, bob);
    assert.deepEqual((await newest()).get(first.id)!.reactions, []);

    await ok('PUT', `/api/messages/${first.id}/pin`, owner);
    assert.equal((await newest()).get(first.id)!.pinned?.by, owner.id);
    await ok('DELETE', `/api/messages/${first.id}/pin`, owner);
    assert.equal((await newest()).get(first.id)!.pinned, undefined);

    const reply = await ok<Message>(
      'POST',
      `/api/converses/${converseId}/messages`,
      bob,
      { content: 'a reply', threadId: first.id },
      201,
    );
    page = await newest();
    assert.equal(page.get(first.id)!.thread?.replyCount, 1);
    assert.deepEqual(page.get(first.id)!.thread?.participantIds, [bob.id]);
    assert.equal(page.get(reply.id)!.threadId, first.id);
    await ok('DELETE', `/api/messages/${reply.id}`, bob, undefined, 204);
    page = await newest();
    assert.equal(page.get(first.id)!.thread?.replyCount, 0);
    assert.equal(page.get(reply.id)!.deleted, true);

    await ok('PUT', `/api/messages/${poll.id}/poll/votes`, bob, { options: [1] });
    assert.deepEqual(
      (await newest()).get(poll.id)!.poll!.options.map((o) => o.votes),
      [0, 1],
    );
    await ok('POST', `/api/messages/${poll.id}/poll/close`, owner);
    assert.equal((await newest()).get(poll.id)!.poll!.closed, true);

    await ok('DELETE', `/api/messages/${last.id}`, owner, undefined, 204);
    page = await newest();
    assert.equal(page.get(last.id)!.deleted, true);
    assert.equal(page.get(last.id)!.content, '');
  });
});
