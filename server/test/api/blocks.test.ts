import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { AuthResult, BlockedUser, DmConverse } from '@im/protocol';
import { eventually } from './harness.ts';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';
import { groupWithMembers, sendMessage } from '../support/conversations.ts';

type Err = { error: { code: string; message: string } };
type Inbox = { items: Array<{ messageId: string; authorId: string }> };

/** Blocking a user: no DMs between the two, no notifications of the blocked user's messages, a list to undo it. */
describe('blocks', () => {
  const { api } = apiSuite(import.meta.url);

  const block = (user: User, userId: string) =>
    api.request<Err>('POST', '/api/users/me/blocks', { token: user.token, body: { userId } });
  const unblock = (user: User, userId: string) =>
    api.request('DELETE', `/api/users/me/blocks/${userId}`, { token: user.token });
  const list = async (user: User) => {
    const res = await api.request<BlockedUser[]>('GET', '/api/users/me/blocks', { token: user.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const openDm = (user: User, other: User) =>
    api.request<DmConverse & Err>('POST', '/api/dms', { token: user.token, body: { userId: other.id } });
  const sendTo = (user: User, converseId: string) =>
    api.request<Err>('POST', `/api/converses/${converseId}/messages`, { token: user.token, body: { content: 'hi' } });

  it('blocks, lists and unblocks; refuses myself, unknown users, bad ids and no token', async () => {
    const me = await api.user('blk');
    const other = await api.user('blo');
    const third = await api.user('blt');
    assert.deepEqual(await list(me), []);
    assert.equal((await block(me, other.id)).status, 204);
    assert.equal((await block(me, other.id)).status, 204, 'blocking again changes nothing');
    assert.equal((await block(me, third.id)).status, 204);
    const blocked = await list(me);
    assert.deepEqual(
      blocked.map((b) => b.userId),
      [third.id, other.id],
    );
    assert.ok(blocked.every((b) => !Number.isNaN(Date.parse(b.createdAt))));
    // Only mine: the blocked user's own list is empty.
    assert.deepEqual(await list(other), []);

    const self = await block(me, me.id);
    assert.deepEqual([self.status, self.body.error.code], [400, 'IM_ERR_VALIDATION']);
    const unknown = await block(me, '0'.repeat(24));
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'IM_ERR_NOT_FOUND']);
    assert.equal((await block(me, 'nope')).status, 400);
    assert.equal((await api.request('POST', '/api/users/me/blocks', { body: { userId: other.id } })).status, 401);
    assert.equal((await api.request('GET', '/api/users/me/blocks')).status, 401);

    assert.equal((await unblock(me, other.id)).status, 204);
    assert.equal((await unblock(me, other.id)).status, 204, 'unblocking again changes nothing');
    assert.deepEqual(
      (await list(me)).map((b) => b.userId),
      [third.id],
    );
  });

  it('refuses DMs either way while one blocked the other, with 403 IM_ERR_BLOCKED; unblocking lets them write again', async () => {
    const me = await api.user('bdm');
    const pest = await api.user('bdp');
    const dm = await openDm(pest, me);
    assert.equal(dm.status, 200);
    assert.equal((await sendTo(pest, dm.body.id)).status, 201);

    assert.equal((await block(me, pest.id)).status, 204);
    const reopen = await openDm(pest, me);
    assert.deepEqual([reopen.status, reopen.body.error.code], [403, 'IM_ERR_BLOCKED']);
    const theirs = await sendTo(pest, dm.body.id);
    assert.deepEqual([theirs.status, theirs.body.error.code], [403, 'IM_ERR_BLOCKED']);
    // The blocker cannot write to them either, and is told why.
    const mine = await sendTo(me, dm.body.id);
    assert.deepEqual([mine.status, mine.body.error.code], [403, 'IM_ERR_BLOCKED']);
    assert.match(mine.body.error.message, /unblock/);
    assert.equal((await openDm(me, pest)).status, 403);

    assert.equal((await unblock(me, pest.id)).status, 204);
    assert.equal((await openDm(pest, me)).status, 200);
    assert.equal((await sendTo(pest, dm.body.id)).status, 201);
  });

  it('a blocked user’s mention of me in a group files no inbox entry; others’ still do', async () => {
    const { members, converseId } = await groupWithMembers(api, 3);
    const [me, pest, friend] = members as [User, User, User];
    const myName = (await api.client(me.token).call('user.me', {})).username;
    assert.equal((await block(me, pest.id)).status, 204);
    const fromPest = await sendMessage(api, pest, converseId, `@${myName} hello`);
    const fromFriend = await sendMessage(api, friend, converseId, `@${myName} hello`);
    const inbox = await eventually(
      async () => (await api.request<Inbox>('GET', '/api/notifications', { token: me.token })).body,
      (page) => page.items.some((n) => n.messageId === fromFriend.id),
    );
    assert.deepEqual(
      inbox.items.map((n) => n.messageId),
      [fromFriend.id],
    );
    assert.ok(!inbox.items.some((n) => n.messageId === fromPest.id));
  });

  it('deleting my account checks the password when one is given', async () => {
    const password = randomBytes(12).toString('base64url');
    const username = `bdel${process.pid}`;
    const created = await api.request<AuthResult>('POST', '/api/auth/register', { body: { username, password } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const me = { token: created.body.token, id: created.body.user.id };
    const other = await api.user('bdo');
    assert.equal((await block(me as User, other.id)).status, 204);
    const wrong = await api.request<Err>('DELETE', '/api/users/me', {
      token: me.token,
      body: { password: `${password}x` },
    });
    assert.deepEqual([wrong.status, wrong.body.error.code], [403, 'IM_ERR_WRONG_PASSWORD']);
    assert.equal((await api.request('DELETE', '/api/users/me', { token: me.token, body: { password } })).status, 204);
    assert.equal((await api.request('GET', '/api/users/me/blocks', { token: me.token })).status, 401);
  });
});
