import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type {
  ConverseNotificationSetting,
  DmConverse,
  Group,
  Invite,
  Message,
  NotificationPage,
  NotificationSettings,
  UnreadEntry,
} from '@im/protocol';
import { startApi, type ApiHarness } from '../api/harness.ts';
import { connectClient, record, until, type ClientSocket } from '../realtime/client.ts';
import { browserSubscription, PushEndpoint } from './push-endpoint.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;
type Pushed = { type: string; messageId: string };

describe('notification levels, the inbox and mark as unread', () => {
  let api: ApiHarness;
  let endpoint: PushEndpoint;
  let origin: string;
  const sockets: ClientSocket[] = [];
  let subscriptionCounter = 0;

  before(async () => {
    endpoint = new PushEndpoint();
    origin = await endpoint.start();
    api = await startApi(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1', VAPID_SUBJECT: 'mailto:ops@example.org' });
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    await api.close();
    await endpoint.stop();
  });

  const connect = async (u: User) => {
    const socket = await connectClient(api.base, u.token);
    sockets.push(socket);
    return socket;
  };
  /** A browser of the user's: what reached it, decrypted. */
  const browser = async (user: User) => {
    subscriptionCounter += 1;
    const sub = browserSubscription(`${origin}/push/${subscriptionCounter}`);
    assert.equal(
      (await api.request('POST', '/api/push/subscriptions', { token: user.token, body: sub.json })).status,
      201,
    );
    return () =>
      endpoint.received
        .filter((r) => `${origin}${r.path}` === sub.json.endpoint)
        .map((r) => sub.decrypt(r.body) as Pushed);
  };
  const group = async (n: number) => {
    const owner = await api.user('lo');
    const g = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Levels' } })).body;
    const { code } = (
      await api.request<Invite>('POST', `/api/groups/${g.id}/invites`, { token: owner.token, body: {} })
    ).body;
    const members: User[] = [];
    for (let i = 0; i < n; i += 1) {
      const u = await api.user('lm');
      await api.request('POST', `/api/invites/${code}/accept`, { token: u.token });
      members.push(u);
    }
    return { owner, members, converseId: g.panels[0]!.converseId };
  };
  const send = async (u: User, converseId: string, content: string, extra: Record<string, unknown> = {}) => {
    const res = await api.request<Message>('POST', `/api/converses/${converseId}/messages`, {
      token: u.token,
      body: { content, ...extra },
    });
    assert.equal(res.status, 201);
    return res.body;
  };
  const level = (u: User, converseId: string, body?: unknown) =>
    api.request<ConverseNotificationSetting>(body ? 'PUT' : 'GET', `/api/converses/${converseId}/notifications`, {
      token: u.token,
      ...(body ? { body } : {}),
    });
  const inbox = async (u: User) =>
    (await api.request<NotificationPage>('GET', '/api/notifications', { token: u.token })).body.items;
  const unread = async (u: User) =>
    (await api.request<{ unread: number }>('GET', '/api/notifications/unread', { token: u.token })).body.unread;
  /** A DM from `from` reaches `to`'s browser: what was queued for `to` before it has been sent by then. */
  const marker = async (from: User, to: User, pushes: () => Pushed[]) => {
    const dm = (await api.request<DmConverse>('POST', '/api/dms', { token: from.token, body: { userId: to.id } })).body;
    const m = await send(from, dm.id, 'marker');
    await until('the marker push', () => pushes().some((p) => p.messageId === m.id));
  };

  it('answers the default level, sets levels and mutes, validates, and tells my other devices', async () => {
    const { owner, members, converseId } = await group(1);
    const me = members[0]!;
    const outsider = await api.user('lx');
    assert.deepEqual((await level(me, converseId)).body, { level: 'all', muteUntil: null }, 'a small group: all');
    const dm = (await api.request<DmConverse>('POST', '/api/dms', { token: me.token, body: { userId: owner.id } }))
      .body;
    assert.deepEqual((await level(me, dm.id)).body, { level: 'all', muteUntil: null });

    const other = await connect(me);
    const told = record(other, 'converse:notifications');
    const until1h = new Date(Date.now() + 3_600_000).toISOString();
    const set = await level(me, converseId, { level: 'mentions', muteUntil: until1h });
    assert.equal(set.status, 200);
    assert.deepEqual(set.body, { level: 'mentions', muteUntil: until1h });
    await until('the other device is told', () => told.length === 1);
    assert.deepEqual(told[0], { converseId, level: 'mentions', muteUntil: until1h });
    assert.deepEqual((await level(me, converseId)).body, { level: 'mentions', muteUntil: until1h });

    const past = await level(me, converseId, { level: 'mentions', muteUntil: '2020-01-01T00:00:00.000Z' });
    assert.deepEqual(past.body, { level: 'mentions', muteUntil: null }, 'a mute that ended is none');

    assert.equal((await level(me, converseId, { level: 'loud' })).status, 400);
    assert.equal((await level(me, converseId, { level: 'none', muteUntil: 'soon' })).status, 400);
    // An ISO 8601 time with its offset, as the document's date-time says: a date alone is not one.
    assert.equal((await level(me, converseId, { level: 'none', muteUntil: '2030-01-31' })).status, 400);
    assert.equal((await level(me, converseId, { level: 'none', extra: 1 })).status, 400);
    assert.equal((await level(outsider, converseId)).status, 404);
    assert.equal((await level(outsider, converseId, { level: 'none' })).status, 404);

    const all = (await api.request<NotificationSettings>('GET', '/api/notifications/settings', { token: me.token }))
      .body;
    assert.deepEqual(all.converses[converseId], { level: 'mentions', muteUntil: null });
    assert.deepEqual(all.mutedConverseIds, []);
  });

  it('keeps the old settings endpoint working: a muted converse is level none, and back', async () => {
    const { members, converseId } = await group(1);
    const me = members[0]!;
    const put = await api.request<NotificationSettings>('PUT', '/api/notifications/settings', {
      token: me.token,
      body: { mutedConverseIds: [converseId] },
    });
    assert.deepEqual(put.body.mutedConverseIds, [converseId]);
    assert.deepEqual((await level(me, converseId)).body, { level: 'none', muteUntil: null });
    await level(me, converseId, { level: 'all' });
    const after = await api.request<NotificationSettings>('GET', '/api/notifications/settings', { token: me.token });
    assert.deepEqual(after.body.mutedConverseIds, []);
    await level(me, converseId, { level: 'none' });
    await api.request('PUT', '/api/notifications/settings', { token: me.token, body: { mutedConverseIds: [] } });
    assert.deepEqual((await level(me, converseId)).body, { level: 'all', muteUntil: null }, 'back to the default');
  });

  it('pushes by level: all hears every message, mentions only mentions, none and a running mute nothing', async () => {
    const { owner, members, converseId } = await group(4);
    const [silent, mentionsOnly, everything, snoozed] = members as [User, User, User, User];
    const pushes = new Map<User, () => Pushed[]>();
    for (const u of members) pushes.set(u, await browser(u));
    await level(silent, converseId, { level: 'none' });
    await level(mentionsOnly, converseId, { level: 'mentions' });
    await level(snoozed, converseId, { level: 'all', muteUntil: new Date(Date.now() + 3_600_000).toISOString() });

    const plain = await send(owner, converseId, 'nothing special');
    const named = await send(
      owner,
      converseId,
      `@${silent.username} @${mentionsOnly.username} @${everything.username} @${snoozed.username}`,
    );
    for (const u of members) await marker(owner, u, pushes.get(u)!);
    const got = (u: User) => pushes.get(u)!().filter((p) => p.messageId === plain.id || p.messageId === named.id);
    assert.deepEqual(got(silent), []);
    assert.deepEqual(got(snoozed), []);
    assert.deepEqual(
      got(mentionsOnly).map((p) => [p.type, p.messageId]),
      [['mention', named.id]],
    );
    // Two messages' pushes may arrive in either order (the queue sends them concurrently).
    assert.deepEqual(
      got(everything)
        .map((p) => [p.type, p.messageId])
        .sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
      [
        ['message', plain.id],
        ['mention', named.id],
      ],
    );
    // The inbox has the mentions of those who hear them, and no plain message.
    assert.deepEqual(
      (await inbox(mentionsOnly)).filter((n) => n.converseId === converseId).map((n) => [n.type, n.messageId]),
      [['mention', named.id]],
    );
    assert.deepEqual(
      (await inbox(silent)).filter((n) => n.converseId === converseId),
      [],
    );
    assert.deepEqual(
      (await inbox(snoozed)).filter((n) => n.converseId === converseId),
      [],
    );
    // The missed-message e-mail asks the same question.
    const muted = await api.broker.call<string[], object>('push.mutedAmong', {
      converseId,
      userIds: members.map((u) => u.id),
    });
    assert.deepEqual(new Set(muted), new Set([silent.id, snoozed.id]));

    // The mute ran out (as if its hour had passed): the member hears the converse again.
    await api.node.app
      .mongo!.collection('conversenotificationlevels')
      .updateOne({ muteUntil: { $gt: new Date() } }, { $set: { muteUntil: new Date(0) } });
    assert.deepEqual((await level(snoozed, converseId)).body, { level: 'all', muteUntil: null });
    const later = await send(owner, converseId, 'after the mute');
    await until('the push after the mute', () => pushes.get(snoozed)!().some((p) => p.messageId === later.id));
  });

  it('files mentions and thread replies whether online or not, counts them, and marks them read', async () => {
    const { owner, members, converseId } = await group(1);
    const reader = members[0]!;
    const socket = await connect(reader);
    const counts = record(socket, 'inbox:updated');
    const root = await send(reader, converseId, 'a question');
    const mention = await send(owner, converseId, `@${reader.username} look`);
    const reply = await send(owner, converseId, 'an answer', { threadId: root.id });
    await until('two inbox counts', () => counts.some((c) => c.unread === 2));
    const items = await inbox(reader);
    assert.deepEqual(items.map((n) => [n.type, n.messageId, n.read]).sort(), [
      ['mention', mention.id, false],
      ['reply', reply.id, false],
    ]);
    assert.equal(await unread(reader), 2);

    const upTo = await api.request<{ unread: number }>('POST', '/api/notifications/read', {
      token: reader.token,
      body: { upTo: items.at(-1)!.id },
    });
    assert.deepEqual(upTo.body, { unread: 1 });
    await until('told one unread', () => counts.at(-1)?.unread === 1);
    const all = await api.request<{ unread: number }>('POST', '/api/notifications/read', {
      token: reader.token,
      body: {},
    });
    assert.deepEqual(all.body, { unread: 0 });
    await until('told none unread', () => counts.at(-1)?.unread === 0);
    assert.deepEqual(
      (await inbox(reader)).map((n) => n.read),
      [true, true],
    );
    assert.equal(
      (await api.request('POST', '/api/notifications/read', { token: reader.token, body: { upTo: 'nope' } })).status,
      400,
    );

    // Reading the thread clears its reply entries; reading the converse does not.
    const reply2 = await send(owner, converseId, 'another answer', { threadId: root.id });
    await until('the second reply counted', () => counts.at(-1)?.unread === 1);
    const told = counts.length;
    await api.request('POST', `/api/converses/${converseId}/ack`, { token: reader.token, body: { seq: reply2.seq } });
    // The read mention went with the converse; the reply stays.
    await until('the converse read', () => counts.length > told);
    assert.equal(counts.at(-1)?.unread, 1);
    await api.request('POST', `/api/messages/${root.id}/thread/ack`, {
      token: reader.token,
      body: { seq: reply2.seq },
    });
    await until('the thread read', () => counts.at(-1)?.unread === 0);
    assert.ok(!(await inbox(reader)).some((n) => n.messageId === reply2.id));

    // A mention in a converse at level none files nothing.
    await level(reader, converseId, { level: 'none' });
    await send(owner, converseId, `@${reader.username} muted`);
    const dm = (await api.request<DmConverse>('POST', '/api/dms', { token: owner.token, body: { userId: reader.id } }))
      .body;
    const dmMention = await send(owner, dm.id, `@${reader.username} here`);
    await until('the DM mention counted', () => counts.at(-1)?.unread === 1);
    assert.deepEqual(
      (await inbox(reader)).filter((n) => !n.read).map((n) => [n.type, n.messageId]),
      [['mention', dmMention.id]],
    );
  });

  it('marks a converse unread from a message on, live to my other devices, with its mentions counted again', async () => {
    const { owner, members, converseId } = await group(1);
    const me = members[0]!;
    await send(owner, converseId, 'one');
    const two = await send(owner, converseId, `two @${me.username}`);
    const three = await send(owner, converseId, 'three');
    await api.request('POST', `/api/converses/${converseId}/ack`, { token: me.token, body: { seq: three.seq } });
    const other = await connect(me);
    const told = record(other, 'converse:unread');

    const res = await api.request<UnreadEntry>('POST', `/api/converses/${converseId}/unread`, {
      token: me.token,
      body: { seq: two.seq },
    });
    assert.equal(res.status, 200);
    const expected = { converseId, lastSeq: three.seq, readSeq: two.seq - 1, unread: 2, mentions: 1 };
    assert.deepEqual(res.body, expected);
    await until('the other device is told', () => told.length === 1);
    assert.deepEqual(told[0], expected);
    const counts = (await api.request<UnreadEntry[]>('GET', '/api/unread', { token: me.token })).body;
    assert.deepEqual(
      counts.find((c) => c.converseId === converseId),
      expected,
    );

    assert.equal(
      (await api.request('POST', `/api/converses/${converseId}/unread`, { token: me.token, body: { seq: 99 } })).status,
      400,
    );
    assert.equal(
      (await api.request('POST', `/api/converses/${converseId}/unread`, { token: me.token, body: { seq: 0 } })).status,
      400,
    );
    const outsider = await api.user('lx');
    assert.equal(
      (await api.request('POST', `/api/converses/${converseId}/unread`, { token: outsider.token, body: { seq: 1 } }))
        .status,
      404,
    );
  });
});
