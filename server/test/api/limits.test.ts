import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Ack, Group, Message, Reaction, SyncResult } from '@im/protocol';
import { Types } from 'mongoose';
import { connectClient } from '../realtime/client.ts';
import { apiSuite } from '../support/api-suite.ts';

type Err = { error: { code: string } };

/** Per-object limits: reactions per message, cursors per sync. */
describe('limits on reactions and sync', () => {
  const { api, sockets } = apiSuite(import.meta.url);

  const groupOf = async (token: string) =>
    (await api.request<Group>('POST', '/api/groups', { token, body: { name: 'Limits' } })).body;

  it('takes at most 20 different reactions per message; the 21st is 409 with nothing stored', async () => {
    const alice = await api.user('lim');
    const converseId = (await groupOf(alice.token)).panels[0]!.converseId;
    const msg = (
      await api.request<Message>('POST', `/api/converses/${converseId}/messages`, {
        token: alice.token,
        body: { content: 'react to me' },
      })
    ).body;
    const react = (emoji: string, method = 'PUT') =>
      api.request<Reaction[] & Err>(method, `/api/messages/${msg.id}/reactions/${encodeURIComponent(emoji)}`, {
        token: alice.token,
      });
    const emoji = Array.from({ length: 21 }, (_, i) => String.fromCodePoint(0x1f600 + i));
    for (const e of emoji.slice(0, 20)) assert.equal((await react(e)).status, 200, e);
    const refused = await react(emoji[20]!);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'IM_ERR_LIMIT');
    const rows = api.node.app.mongo!.collection('reactions');
    assert.equal(await rows.countDocuments({ messageId: new Types.ObjectId(msg.id) }), 20);
    // An emoji already there still counts for someone else; taking one away frees a place.
    const bob = await api.user('lim');
    const groupId = (await api.request<Group[]>('GET', '/api/groups', { token: alice.token })).body[0]!.id;
    const { code } = (
      await api.request<{ code: string }>('POST', `/api/groups/${groupId}/invites`, { token: alice.token, body: {} })
    ).body;
    await api.request('POST', `/api/invites/${code}/accept`, { token: bob.token });
    const bobs = await api.request<Reaction[]>(
      'PUT',
      `/api/messages/${msg.id}/reactions/${encodeURIComponent(emoji[0]!)}`,
      {
        token: bob.token,
      },
    );
    assert.equal(bobs.status, 200);
    assert.equal(bobs.body.find((r) => r.emoji === emoji[0])?.count, 2);
    assert.equal((await react(emoji[1]!, 'DELETE')).status, 200);
    const now = await react(emoji[20]!);
    assert.equal(now.status, 200);
    assert.equal(now.body.length, 20);
    assert.ok(!now.body.some((r) => r.emoji === emoji[1]));
  });

  it('refuses a sync of more than 500 cursors and answers only the socket’s own converses', async () => {
    const alice = await api.user('lim');
    const converseId = (await groupOf(alice.token)).panels[0]!.converseId;
    await api.request('POST', `/api/converses/${converseId}/messages`, {
      token: alice.token,
      body: { content: 'one' },
    });
    const socket = await connectClient(api.base, alice.token);
    sockets.push(socket);
    const sync = (cursors: unknown) =>
      socket.timeout(10_000).emitWithAck('sync', { cursors } as never) as Promise<Ack<SyncResult>>;
    const madeUp = Object.fromEntries(Array.from({ length: 501 }, () => [new Types.ObjectId().toHexString(), 0]));
    const tooMany = await sync(madeUp);
    assert.equal(tooMany.ok, false);
    assert.equal(!tooMany.ok && tooMany.error.code, 'IM_ERR_VALIDATION');
    const mixed = { ...Object.fromEntries(Object.entries(madeUp).slice(0, 499)), [converseId]: 0 };
    const answer = await sync(mixed);
    assert.ok(answer.ok);
    assert.deepEqual(Object.keys(answer.ok ? answer.data.converses : {}), [converseId]);
    const bad = await sync({ [converseId]: 'x' });
    assert.equal(!bad.ok && bad.error.code, 'IM_ERR_VALIDATION');
  });

  it('account deletion: groups handed to an admin or deleted, memberships and push registrations gone, sessions ended', async () => {
    const owner = await api.user('del');
    const admin = await api.user('del');
    const member = await api.user('del');
    const withAdmin = await groupOf(owner.token);
    const alone = await groupOf(owner.token);
    const joined = await groupOf(member.token);
    const invite = async (groupId: string, by: string) =>
      (await api.request<{ code: string }>('POST', `/api/groups/${groupId}/invites`, { token: by, body: {} })).body
        .code;
    await api.request('POST', `/api/invites/${await invite(withAdmin.id, owner.token)}/accept`, { token: admin.token });
    await api.request('PUT', `/api/groups/${withAdmin.id}/members/${admin.id}/role`, {
      token: owner.token,
      body: { role: 'admin' },
    });
    await api.request('POST', `/api/invites/${await invite(joined.id, member.token)}/accept`, { token: owner.token });
    await api.node.app.mongo!.collection('pushsubscriptions').insertOne({
      endpoint: 'https://push.example.org/x',
      userId: new Types.ObjectId(owner.id),
      p256dh: 'k',
      auth: 'a',
    });
    const socket = await connectClient(api.base, owner.token);
    const closed = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));

    assert.equal((await api.request('DELETE', '/api/users/me', { token: owner.token })).status, 204);
    await closed;
    assert.equal((await api.request('GET', '/api/groups', { token: owner.token })).status, 401);
    const handed = await api.request<Group>('GET', `/api/groups/${withAdmin.id}`, { token: admin.token });
    assert.equal(handed.body.ownerId, admin.id);
    assert.equal(handed.body.myRole, 'owner');
    assert.equal(handed.body.memberCount, 1);
    assert.equal((await api.request('GET', `/api/groups/${alone.id}`, { token: admin.token })).status, 404);
    assert.equal(
      await api.node.app.mongo!.collection('groups').countDocuments({ _id: new Types.ObjectId(alone.id) }),
      0,
    );
    const left = await api.request<Group>('GET', `/api/groups/${joined.id}`, { token: member.token });
    assert.equal(left.body.memberCount, 1);
    const mongo = api.node.app.mongo!;
    assert.equal(await mongo.collection('members').countDocuments({ userId: new Types.ObjectId(owner.id) }), 0);
    assert.equal(
      await mongo.collection('pushsubscriptions').countDocuments({ userId: new Types.ObjectId(owner.id) }),
      0,
    );
    assert.equal(
      await mongo
        .collection('sessions')
        .countDocuments({ userId: new Types.ObjectId(owner.id), revokedAt: { $exists: false } }),
      0,
    );
  });
});
