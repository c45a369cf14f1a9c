import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Me, OwnUser, Presence, UserStatus } from '@im/protocol';
import { apiWithSockets, expectations, groupWithMembers, type ApiHarness } from '../api/harness.ts';
import { connectClient, pause, record, until, type ClientSocket } from '../realtime/client.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

describe('status: do not disturb, away and a custom status', () => {
  const { api, sockets } = apiWithSockets(import.meta.url);
  const { ok, refused } = expectations(() => api);
  const open = async (user: User): Promise<ClientSocket> => {
    const s = await connectClient(api.base, user.token);
    sockets.push(s);
    return s;
  };
  const setStatus = (user: User, status: Record<string, unknown>) =>
    ok<OwnUser>('PATCH', '/api/users/me', user, { status });
  const presenceOf = (viewer: User, ids: string[]) =>
    ok<Presence>('GET', `/api/presence?userIds=${ids.join(',')}`, viewer);
  const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();

  it('refuses a bad status with a clear 400, and changes nothing', async () => {
    const user = await api.user('stv');
    const bad: Array<[string, Record<string, unknown>]> = [
      ['status.text', { text: 'x'.repeat(101) }],
      ['status.emoji', { emoji: 'not an emoji' }],
      ['status.emoji', { emoji: '🙂🙂' }],
      ['status.until', { dnd: true, until: new Date(Date.now() - 60_000).toISOString() }],
      ['status.until', { dnd: true, until: 'tomorrow' }],
      ['status.until', { dnd: false, until: inFuture(60_000) }],
      ['status.clearAt', { text: 'Lunch', clearAt: '2001-01-01T00:00:00Z' }],
      ['status.schedule.timeZone', { schedule: { start: '22:00', end: '07:00', timeZone: 'Mars/Olympus' } }],
      ['status.schedule.start', { schedule: { start: '25:00', end: '07:00', timeZone: 'UTC' } }],
      ['status.schedule.end', { schedule: { start: '07:00', end: '07:00', timeZone: 'UTC' } }],
      ['status.schedule.days', { schedule: { start: '22:00', end: '07:00', timeZone: 'UTC', days: [7] } }],
      ['status.dnd', { dnd: 'yes' }],
      ['status.mood', { mood: 'happy' }],
    ];
    for (const [field, status] of bad) {
      const body = await refused('PATCH', '/api/users/me', user, 400, 'IM_ERR_VALIDATION', { status });
      assert.match(JSON.stringify(body.error), new RegExp(field.split('.').pop()!), `${field}: ${body.error.message}`);
    }
    const me = await ok<Me>('GET', '/api/users/me', user);
    assert.deepEqual(me.status, { dnd: false });
  });

  it('stores do not disturb with its end and a custom status; GET /api/users/me reads it back', async () => {
    const user = await api.user('sts');
    const until = inFuture(3_600_000);
    const answered = await setStatus(user, { dnd: true, until, text: '  In a meeting ', emoji: '📅' });
    assert.deepEqual(answered.status, { dnd: true, until, text: 'In a meeting', emoji: '📅' });
    const schedule = { start: '22:00', end: '07:00', timeZone: 'Europe/Berlin', days: [5, 1, 2] };
    await setStatus(user, { schedule, emoji: ':coffee:' });
    const me = await ok<Me>('GET', '/api/users/me', user);
    assert.deepEqual(me.status, {
      dnd: true,
      until,
      text: 'In a meeting',
      emoji: ':coffee:',
      schedule: { ...schedule, days: [1, 2, 5] },
    });
    // Off by hand: the end goes with it; null and empty clear parts.
    await setStatus(user, { dnd: false, text: '', emoji: null, schedule: null });
    assert.deepEqual((await ok<Me>('GET', '/api/users/me', user)).status, { dnd: false });
  });

  it('tells group members at once and answers GET /api/presence with dnd, text and emoji; clearing it tells them too', async () => {
    const { owner, members } = await groupWithMembers(api, 1);
    const member = members[0]!;
    const watcher = await open(member);
    const seen = record(watcher, 'presence');
    const own = await open(owner);
    const ownSeen = record(own, 'status:updated');
    await until('online', () => seen.some((p) => p.userId === owner.id && p.online));

    await setStatus(owner, { dnd: true, text: 'Focus time', emoji: '🎧' });
    await until('dnd told', () => seen.some((p) => p.userId === owner.id && p.dnd === true));
    assert.deepEqual(seen.at(-1), { userId: owner.id, online: true, dnd: true, text: 'Focus time', emoji: '🎧' });
    await until('own devices told', () => ownSeen.some((s) => s.dnd));
    assert.deepEqual(ownSeen.at(-1), { dnd: true, text: 'Focus time', emoji: '🎧' } satisfies UserStatus);

    const presence = await presenceOf(member, [owner.id, member.id]);
    assert.deepEqual(presence.dnd, [owner.id]);
    assert.deepEqual(presence.online.sort(), [owner.id, member.id].sort());
    assert.deepEqual(presence.statuses[owner.id], { online: true, dnd: true, text: 'Focus time', emoji: '🎧' });
    assert.deepEqual(presence.statuses[member.id], { online: true });

    await setStatus(owner, { dnd: false, text: '', emoji: '' });
    await until('cleared', () => {
      const last = seen.at(-1);
      return last?.userId === owner.id && last.dnd === undefined && last.text === undefined;
    });
    assert.deepEqual((await presenceOf(member, [owner.id])).dnd, []);
  });

  it('tells DM partners too, and nobody who shares nothing', async () => {
    const a = await api.user('sta');
    const peer = await api.user('stp');
    const stranger = await api.user('stx');
    const dm = await api.request('POST', '/api/dms', { token: peer.token, body: { userId: a.id } });
    assert.ok(dm.status < 300, JSON.stringify(dm.body));
    const [atPeer, atStranger] = await Promise.all([open(peer), open(stranger)]);
    const peerSeen = record(atPeer, 'presence');
    const strangerSeen = record(atStranger, 'presence');
    await setStatus(a, { text: 'Travelling', emoji: '✈️' });
    await until('DM peer told', () => peerSeen.some((p) => p.userId === a.id && p.text === 'Travelling'));
    assert.equal(peerSeen.at(-1)!.online, false, 'the author has no socket');
    // The stranger asking is answered as if the user were not there.
    assert.deepEqual(await presenceOf(stranger, [a.id]), { online: [], dnd: [], away: [], statuses: {} });
    await pause(200);
    assert.equal(strangerSeen.length, 0, 'someone who shares nothing hears nothing');
  });

  it('ends do not disturb when its `until` passes: a presence event says so, and GET /api/presence agrees', async () => {
    const { owner, members } = await groupWithMembers(api, 1);
    const watcher = await open(members[0]!);
    const seen = record(watcher, 'presence');
    await setStatus(owner, { dnd: true, until: inFuture(1_500) });
    await until('dnd told', () => seen.some((p) => p.userId === owner.id && p.dnd === true));
    const marked = seen.length;
    // The stored deadline passes and a sweep of the user service acts on it (no client asks).
    await until('end told', () => seen.slice(marked).some((p) => p.userId === owner.id && p.dnd === undefined), 15_000);
    assert.deepEqual((await presenceOf(members[0]!, [owner.id])).dnd, []);
    assert.deepEqual((await ok<Me>('GET', '/api/users/me', owner)).status, { dnd: false });
  });

  it('clears the custom text at its clearAt, telling the group', async () => {
    const { owner, members } = await groupWithMembers(api, 1);
    const watcher = await open(members[0]!);
    const seen = record(watcher, 'presence');
    await setStatus(owner, { text: 'Lunch', emoji: '🍜', clearAt: inFuture(1_500) });
    await until('text told', () => seen.some((p) => p.userId === owner.id && p.text === 'Lunch'));
    const marked = seen.length;
    await until('cleared', () => seen.slice(marked).some((p) => p.userId === owner.id && p.text === undefined), 15_000);
    assert.deepEqual(seen.at(-1), { userId: owner.id, online: false });
  });

  it('is away when every socket of the user is idle, from two sockets, and back with one active', async () => {
    const { owner, members } = await groupWithMembers(api, 1);
    const watcher = await open(members[0]!);
    const seen = record(watcher, 'presence');
    const tab1 = await open(owner);
    const tab2 = await open(owner);
    await until('online', () => seen.some((p) => p.userId === owner.id && p.online));
    const awayTold = () => seen.filter((p) => p.userId === owner.id && p.away === true).length;

    tab1.emit('presence:idle', { idle: true });
    tab2.emit('presence:idle', { idle: true });
    await until('away told', () => awayTold() === 1);
    assert.deepEqual((await presenceOf(members[0]!, [owner.id])).away, [owner.id]);
    assert.deepEqual(seen.at(-1), { userId: owner.id, online: true, away: true });

    tab1.emit('presence:idle', { idle: false });
    await until('back told', () => seen.at(-1)?.userId === owner.id && seen.at(-1)?.away === undefined);
    assert.deepEqual((await presenceOf(members[0]!, [owner.id])).away, []);
    assert.equal(awayTold(), 1, 'one tab going idle while another is active tells nobody');

    // The active tab closing leaves only an idle one: away again.
    tab2.emit('presence:idle', { idle: true });
    tab1.disconnect();
    await until('away after the active tab closed', () => awayTold() === 2);
    tab2.disconnect();
    await until('offline', () => seen.at(-1)?.online === false);
  });
});
