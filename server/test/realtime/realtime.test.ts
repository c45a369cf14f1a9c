import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DmConverse, Group, Invite, Message, Panel } from '@im/protocol';
import { io } from 'socket.io-client';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';
import { connectClient, pause, record, sendOverSocket, sync, until } from './client.ts';

describe('realtime on a single instance (no NATS, no Redis)', () => {
  const { api, sockets } = apiSuite(import.meta.url, { ADMIN_USERNAMES: 'rtadmin' });
  const open = async (user: User) => {
    const s = await connectClient(api.base, user.token);
    sockets.push(s);
    return s;
  };

  const room = async (memberCount: number) => {
    const owner = await api.user('rto');
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Live' } }))
      .body;
    const { code } = (
      await api.request<Invite>('POST', `/api/groups/${group.id}/invites`, { token: owner.token, body: {} })
    ).body;
    const members: User[] = [];
    for (let i = 0; i < memberCount; i += 1) {
      const u = await api.user('rtm');
      await api.request('POST', `/api/invites/${code}/accept`, { token: u.token });
      members.push(u);
    }
    return { owner, members, group, code, converseId: group.panels[0]!.converseId };
  };

  it('refuses a handshake without a valid token, saying why', async () => {
    for (const auth of [{}, { token: 'nope' }]) {
      const socket = io(api.base, { transports: ['websocket'], auth, reconnection: false, forceNew: true });
      const err = await new Promise<Error & { data?: { code: string } }>((resolve) =>
        socket.once('connect_error', resolve),
      );
      assert.equal(err.data?.code, 'IM_ERR_UNAUTHORIZED');
      socket.disconnect();
    }
  });

  it('two users exchange messages both ways, each delivered once to each', async () => {
    const { owner, members, converseId } = await room(1);
    const a = await open(owner);
    const b = await open(members[0]!);
    const atA = record(a, 'message:new');
    const atB = record(b, 'message:new');
    const m1 = await sendOverSocket(a, converseId, 'ping');
    const m2 = await sendOverSocket(b, converseId, 'pong');
    await until('both messages at both', () => atA.length === 2 && atB.length === 2);
    await pause(100);
    assert.deepEqual(
      atA.map((m) => m.id),
      [m1.id, m2.id],
    );
    assert.deepEqual(atB, atA);
    assert.equal(m1.seq + 1, m2.seq);
  });

  it('a user with two tabs gets each message once per tab', async () => {
    const { owner, members, converseId } = await room(1);
    const tab1 = await open(members[0]!);
    const tab2 = await open(members[0]!);
    const seen1 = record(tab1, 'message:new');
    const seen2 = record(tab2, 'message:new');
    const sender = await open(owner);
    for (let i = 0; i < 5; i += 1) await sendOverSocket(sender, converseId, `m${i}`);
    await until('five at each tab', () => seen1.length === 5 && seen2.length === 5);
    await pause(100);
    assert.equal(seen1.length, 5);
    assert.equal(seen2.length, 5);
  });

  it('joining a group mid-session starts delivery without reconnecting; a kick stops it at once', async () => {
    const { owner, code, converseId, group } = await room(0);
    const late = await api.user('late');
    const socket = await open(late);
    const got = record(socket, 'message:new');
    const left = record(socket, 'member:left');
    const sender = await open(owner);
    await sendOverSocket(sender, converseId, 'before joining');
    await api.request('POST', `/api/invites/${code}/accept`, { token: late.token });
    await sendOverSocket(sender, converseId, 'after joining');
    await until('the message after joining', () => got.length === 1);
    assert.equal(got[0]!.content, 'after joining');

    await api.request('DELETE', `/api/groups/${group.id}/members/${late.id}`, { token: owner.token });
    await until('member:left', () => left.length === 1);
    assert.deepEqual(left[0], { groupId: group.id, userId: late.id, removed: true });
    await sendOverSocket(sender, converseId, 'after the kick');
    await pause(300);
    assert.deepEqual(
      got.map((m) => m.content),
      ['after joining'],
    );
    const typing = (await socket.timeout(5000).emitWithAck('typing', { converseId })) as { ok: boolean };
    assert.equal(typing.ok, false);
  });

  it('a client that missed 50 messages gets exactly those 50 on sync', async () => {
    const { owner, members, converseId } = await room(1);
    const reader = await open(members[0]!);
    const first = await sendOverSocket(await open(owner), converseId, 'seen live');
    await until('the live message', () => true);
    reader.disconnect();
    const writer = await open(owner);
    const missed: Message[] = [];
    for (let i = 0; i < 50; i += 1) missed.push(await sendOverSocket(writer, converseId, `missed ${i}`));
    const back = await open(members[0]!);
    const result = await sync(back, { [converseId]: first.seq });
    const entry = result.converses[converseId]!;
    assert.equal(entry.tooMany ?? false, false);
    assert.deepEqual(
      entry.messages.map((m) => m.id),
      missed.map((m) => m.id),
    );
    // More than 200 missed: page history instead.
    for (let i = 0; i < 201; i += 1)
      await api.broker.call('chat.send', { converseId, content: `bulk ${i}` }, { meta: { user: { id: owner.id } } });
    const big = await sync(back, { [converseId]: missed.at(-1)!.seq });
    assert.equal(big.converses[converseId]!.tooMany, true);
    // Converses the caller is not in are left out.
    const other = await room(0);
    const foreign = await sync(back, { [other.converseId]: 0 });
    assert.deepEqual(foreign.converses, {});
  });

  it('follows panels, DMs and typing', async () => {
    const { owner, members, group } = await room(1);
    const member = await open(members[0]!);
    const ownerSocket = await open(owner);
    const got = record(member, 'message:new');
    const panel = (
      await api.request<Panel>('POST', `/api/groups/${group.id}/panels`, {
        token: owner.token,
        body: { name: 'new', type: 'text' },
      })
    ).body;
    await sendOverSocket(ownerSocket, panel.converseId, 'in the new panel');
    await until('message in the new panel', () => got.some((m) => m.converseId === panel.converseId));

    const typingSeen = record(member, 'typing');
    const ownTyping = record(ownerSocket, 'typing');
    await ownerSocket.timeout(5000).emitWithAck('typing', { converseId: panel.converseId });
    await ownerSocket.timeout(5000).emitWithAck('typing', { converseId: panel.converseId });
    await until('typing', () => typingSeen.length === 1);
    await pause(100);
    assert.equal(typingSeen.length, 1, 'typing is throttled');
    assert.deepEqual(typingSeen[0], { converseId: panel.converseId, userId: owner.id });
    assert.equal(ownTyping.length, 0, 'nobody sees their own typing');

    const stranger = await api.user('dm');
    const strangerSocket = await open(stranger);
    const dmOpened = record(strangerSocket, 'dm:opened');
    const dm = (
      await api.request<DmConverse>('POST', '/api/dms', { token: members[0]!.token, body: { userId: stranger.id } })
    ).body;
    await until('dm:opened', () => dmOpened.length === 1);
    const dmGot = record(strangerSocket, 'message:new');
    await sendOverSocket(member, dm.id, 'private hello');
    await until('DM message', () => dmGot.length === 1);
    assert.equal(got.filter((m) => m.converseId === dm.id).length, 1, 'the sender gets it too');
  });

  it('keeps sockets in the room of a group that has no panel left', async () => {
    const { owner, members, group } = await room(1);
    await api.request('DELETE', `/api/groups/${group.id}/panels/${group.panels[0]!.id}`, { token: owner.token });
    const socket = await open(members[0]!);
    const updates = record(socket, 'group:updated');
    await api.request('PATCH', `/api/groups/${group.id}`, { token: owner.token, body: { name: 'Renamed' } });
    await until('group:updated', () => updates.length === 1);
    assert.equal(updates[0]!.name, 'Renamed');
  });

  it('tells group members when someone comes online and goes offline', async () => {
    const { owner, members } = await room(1);
    const watcher = await open(owner);
    const presence = record(watcher, 'presence');
    const s = await open(members[0]!);
    await until('online', () => presence.some((p) => p.userId === members[0]!.id && p.online));
    const online = (
      await api.request<{ online: string[] }>('GET', `/api/presence?userIds=${members[0]!.id},${owner.id}`, {
        token: owner.token,
      })
    ).body;
    assert.deepEqual(online.online.sort(), [members[0]!.id, owner.id].sort());
    s.disconnect();
    await until('offline', () => presence.some((p) => p.userId === members[0]!.id && !p.online));
  });

  it("tells a group of a member's comings and goings from the moment they join, without reconnecting", async () => {
    const { owner, code } = await room(0);
    const watcher = await open(owner);
    const presence = record(watcher, 'presence');
    const joiner = await api.user('rtj');
    // Online before joining: at connect the group was not theirs yet.
    const s = await open(joiner);
    await api.request('POST', `/api/invites/${code}/accept`, { token: joiner.token });
    s.disconnect();
    await until('offline told', () => presence.some((p) => p.userId === joiner.id && !p.online));
  });

  it('shows a new display name to everyone who shares a group or a DM, at once', async () => {
    const { owner, members } = await room(1);
    const outsider = await api.user('rtx');
    const dmPeer = await api.user('rtd');
    await api.request('POST', '/api/dms', { token: dmPeer.token, body: { userId: owner.id } });
    const [member, peer, stranger, self] = await Promise.all([
      open(members[0]!),
      open(dmPeer),
      open(outsider),
      open(owner),
    ]);
    const seen = [member, peer, stranger, self].map((s) => record(s, 'user:updated'));
    const res = await api.request('PATCH', '/api/users/me', { token: owner.token, body: { nickname: 'Captain' } });
    assert.equal(res.status, 200);
    for (const [i, who] of ['member', 'DM peer', 'own device'].entries()) {
      const list = seen[[0, 1, 3][i]!]!;
      await until(`user:updated at the ${who}`, () => list.length === 1);
      assert.equal(list[0]!.nickname, 'Captain');
      assert.equal(list[0]!.id, owner.id);
    }
    await pause(200);
    assert.equal(seen[2]!.length, 0, 'someone who shares nothing hears nothing');
  });

  it('counts its open sockets in /metrics (im_gateway_sockets)', async () => {
    const count = async () => {
      const text = await (await fetch(`${api.base}/metrics`)).text();
      const match = /^im_gateway_sockets (\d+)$/m.exec(text);
      assert.ok(match, 'im_gateway_sockets is exported');
      return Number(match[1]);
    };
    const before = await count();
    const { owner, members } = await room(1);
    const a = await open(owner);
    const b = await open(members[0]!);
    assert.equal(await count(), before + 2);
    a.disconnect();
    b.disconnect();
    for (let i = 0; i < 50 && (await count()) !== before; i += 1) await pause(100);
    assert.equal(await count(), before);
  });

  it('closes the sockets of a deactivated user, and a connection that sends too much', async () => {
    const { members, converseId } = await room(1);
    const s = await open(members[0]!);
    const closed = new Promise<string>((resolve) => s.once('disconnect', resolve));
    const admin = await api.request<{ token: string }>('POST', '/api/auth/register', {
      body: { username: 'rtadmin', password: 'correct horse battery' },
    });
    const deactivated = await api.request('POST', `/api/admin/users/${members[0]!.id}/deactivate`, {
      token: admin.body.token,
    });
    assert.equal(deactivated.status, 204);
    assert.equal(await closed, 'io server disconnect');

    const { owner } = await room(0);
    const big = await open(owner);
    const dropped = new Promise<string>((resolve) => big.once('disconnect', resolve));
    big.emit('message:send', { converseId, content: 'x'.repeat(100_000) }, () => undefined);
    assert.equal(await dropped, 'transport close');
  });
});
