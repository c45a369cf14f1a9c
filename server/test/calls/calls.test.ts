// Voice and video against a real LiveKit server (livekit-server, built by
// setup) on loopback: tokens from the API, real participants joining and
// publishing through @livekit/rtc-node (the native WebRTC client), LiveKit's
// own signed webhooks keeping the participant list, DM ringing, declining,
// the call records in the DM, and members who leave taken out of the call.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallJoin, CallRinging, CallState, DmConverse, Message, Panel } from '@im/protocol';
import type { LiveKitServerHandle } from '@im/dev-servers';
import {
  AudioSource,
  LocalAudioTrack,
  Room,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
  dispose,
} from '@livekit/rtc-node';
import { AccessToken, RoomServiceClient, TokenVerifier } from 'livekit-server-sdk';
import { createHash } from 'node:crypto';
import mongoose, { Types } from 'mongoose';
import { eventually, expectations, groupWithMembers, startApi, type ApiHarness } from '../api/harness.ts';
import { connectClient, record, until, type ClientSocket } from '../realtime/client.ts';
import { startApiWithLiveKit } from './with-livekit.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

/** LiveKit's webhooks travel over HTTP with retries: generous, and only ever a deadline. */
const WEBHOOK_DEADLINE_MS = 20_000;

describe('voice and video through LiveKit', () => {
  let livekit: LiveKitServerHandle;
  let api: ApiHarness;
  const sockets: ClientSocket[] = [];
  const rooms: Room[] = [];
  const grants = new Map<Room, CallJoin>();
  const { ok, refused } = expectations(() => api);
  /** LiveKit's own view of someone in a room (its room API, with the server's keys). */
  const inLiveKit = (room: string, identity: string) =>
    new RoomServiceClient(livekit.url.replace('ws://', 'http://'), livekit.apiKey, livekit.apiSecret)
      .getParticipant(room, identity)
      .catch(() => undefined);

  before(async () => {
    ({ api, livekit } = await startApiWithLiveKit(import.meta.url));
  });

  after(async () => {
    for (const room of rooms) await room.disconnect().catch(() => undefined);
    await dispose();
    for (const socket of sockets) socket.disconnect();
    await api?.close();
    await livekit?.stop();
  });

  const voicePanel = async (owner: User, groupId: string, name = 'lounge') =>
    ok<Panel>('POST', `/api/groups/${groupId}/panels`, owner, { name, type: 'voice' }, 201);

  const socketOf = async (user: User) => {
    const socket = await connectClient(api.base, user.token);
    sockets.push(socket);
    return socket;
  };

  /** Joins the converse's call as `user` the way the app does: a token from the API, then LiveKit. */
  /** Connects to LiveKit with a grant, as the app does after asking for it. */
  const connect = async (grant: CallJoin) => {
    const room = new Room();
    rooms.push(room);
    await room.connect(grant.url, grant.token, { autoSubscribe: true, dynacast: false });
    return room;
  };

  const joinCall = async (user: User, converseId: string, opts: { microphone?: boolean } = {}) => {
    const grant = await ok<CallJoin>('POST', `/api/converses/${converseId}/call/join`, user);
    const room = await connect(grant);
    grants.set(room, grant);
    if (opts.microphone) {
      const source = new AudioSource(48_000, 1);
      const track = LocalAudioTrack.createAudioTrack('microphone', source);
      const options = new TrackPublishOptions();
      options.source = TrackSource.SOURCE_MICROPHONE;
      await room.localParticipant!.publishTrack(track, options);
    }
    return room;
  };

  const callOf = (user: User, converseId: string) => ok<CallState>('GET', `/api/converses/${converseId}/call`, user);

  /**
   * Waits for a `call:updated` of `converseId` that satisfies `check` among
   * those that arrived after `since` of them (what came before the step
   * under test must not answer for it), answering it.
   */
  const updateWhere = async (
    seen: CallState[],
    since: number,
    converseId: string,
    check: (s: CallState) => boolean,
    what: string,
  ): Promise<CallState> => {
    const match = (s: CallState) => s.converseId === converseId && check(s);
    await until(what, () => seen.slice(since).some(match), WEBHOOK_DEADLINE_MS);
    return seen.slice(since).filter(match).at(-1)!;
  };

  it("answers a token for a voice panel's members (identity, room, rights); outsiders 404, text panels 400", async () => {
    const { owner, members, groupId, converseId: textConverse } = await groupWithMembers(api, 2, 'Band');
    const [member, muted] = members as [User, User];
    const outsider = await api.user('out');
    const panel = await voicePanel(owner, groupId);
    assert.equal(panel.type, 'voice');

    const grant = await ok<CallJoin>('POST', `/api/converses/${panel.converseId}/call/join`, member);
    assert.equal(grant.url, livekit.url);
    assert.equal(grant.room, panel.converseId);
    const claims = await new TokenVerifier(livekit.apiKey, livekit.apiSecret).verify(grant.token);
    assert.equal(claims.sub, member.id);
    assert.equal(claims.video?.room, panel.converseId);
    assert.equal(claims.video?.roomJoin, true);
    assert.equal(claims.video?.canPublish, true);
    const lifetime = Number(claims.exp) - Number(claims.nbf ?? Math.floor(Date.now() / 1000));
    assert.ok(lifetime > 3500 && lifetime <= 3600, `a token lasts an hour (${lifetime} s)`);

    // A muted member listens only; so does a member in a panel where only admins post (a stage).
    await ok('PUT', `/api/groups/${groupId}/members/${muted.id}/mute`, owner, { seconds: 600 }, 204);
    const mutedGrant = await ok<CallJoin>('POST', `/api/converses/${panel.converseId}/call/join`, muted);
    const mutedClaims = await new TokenVerifier(livekit.apiKey, livekit.apiSecret).verify(mutedGrant.token);
    assert.equal(mutedClaims.video?.canPublish, false);
    const stage = await voicePanel(owner, groupId, 'stage');
    await ok('PATCH', `/api/groups/${groupId}/panels/${stage.id}`, owner, { postingRole: 'admin' });
    const listener = await ok<CallJoin>('POST', `/api/converses/${stage.converseId}/call/join`, member);
    assert.equal(
      (await new TokenVerifier(livekit.apiKey, livekit.apiSecret).verify(listener.token)).video?.canPublish,
      false,
    );
    const speaker = await ok<CallJoin>('POST', `/api/converses/${stage.converseId}/call/join`, owner);
    assert.equal(
      (await new TokenVerifier(livekit.apiKey, livekit.apiSecret).verify(speaker.token)).video?.canPublish,
      true,
    );

    await refused('POST', `/api/converses/${panel.converseId}/call/join`, outsider, 404, 'IM_ERR_NOT_FOUND');
    await refused('GET', `/api/converses/${panel.converseId}/call`, outsider, 404, 'IM_ERR_NOT_FOUND');
    await refused('POST', `/api/converses/${textConverse}/call/join`, member, 400, 'IM_ERR_VALIDATION');
    await refused('POST', '/api/converses/not-an-id/call/join', member, 400, 'IM_ERR_VALIDATION');
    assert.equal((await api.request('POST', `/api/converses/${panel.converseId}/call/join`)).status, 401);
    // A voice panel has no messages for the web.
    await refused('PATCH', `/api/groups/${groupId}/panels/${panel.id}`, owner, 409, 'IM_ERR_CONFLICT', {
      webPublic: true,
    });
  });

  it('keeps who is in a call from LiveKit, and tells every member as people join, publish and leave', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 2, 'Choir');
    const [ann, watcher] = members as [User, User];
    const panel = await voicePanel(owner, groupId);
    const seen = record(await socketOf(watcher), 'call:updated');

    const ownerRoom = await joinCall(owner, panel.converseId, { microphone: true });
    const annRoom = await joinCall(ann, panel.converseId);
    const both = await updateWhere(
      seen,
      0,
      panel.converseId,
      (s) => s.participants.length === 2 && s.participants.some((p) => p.userId === owner.id && p.audio),
      'both in the call, the owner with a microphone',
    );
    assert.deepEqual(
      both.participants.map((p) => p.userId),
      [owner.id, ann.id],
      'in the order they joined',
    );
    const annEntry = both.participants.find((p) => p.userId === ann.id)!;
    assert.deepEqual([annEntry.audio, annEntry.video, annEntry.screen], [false, false, false]);
    const state = await callOf(watcher, panel.converseId);
    assert.deepEqual(
      state.participants.map((p) => [p.userId, p.audio]),
      [
        [owner.id, true],
        [ann.id, false],
      ],
    );
    // Media really flows: Ann hears the owner's microphone through LiveKit.
    await until(
      "Ann subscribed to the owner's audio",
      () =>
        [...annRoom.remoteParticipants.values()].some((p) =>
          [...p.trackPublications.values()].some((t) => t.kind === TrackKind.KIND_AUDIO && t.track !== undefined),
        ),
      WEBHOOK_DEADLINE_MS,
    );

    const beforeLeave = seen.length;
    await annRoom.disconnect();
    await updateWhere(
      seen,
      beforeLeave,
      panel.converseId,
      (s) => s.participants.length === 1,
      'Ann gone from the call',
    );
    assert.deepEqual(
      (await callOf(watcher, panel.converseId)).participants.map((p) => p.userId),
      [owner.id],
    );
    const beforeEnd = seen.length;
    await ownerRoom.disconnect();
    await updateWhere(seen, beforeEnd, panel.converseId, (s) => s.participants.length === 0, 'the call over');
    assert.deepEqual((await callOf(owner, panel.converseId)).participants, []);
  });

  it('rings the other member of a DM, and records a missed, an answered and a declined call in the DM', async () => {
    const caller = await api.user('caller');
    const callee = await api.user('callee');
    const dm = await ok<DmConverse>('POST', '/api/dms', caller, { userId: callee.id });
    const calleeSocket = await socketOf(callee);
    const callerSocket = await socketOf(caller);
    const ringing = record(calleeSocket, 'call:ringing');
    const declined = record(callerSocket, 'call:declined');
    const messages = record(calleeSocket, 'message:new');
    const callRecords = () => messages.filter((m) => m.converseId === dm.id && m.call);

    // Unanswered: rings, then the caller hangs up: a missed call in the DM, under the caller's name.
    let room = await joinCall(caller, dm.id, { microphone: true });
    await until('the callee rings', () => ringing.length === 1, WEBHOOK_DEADLINE_MS);
    const rings = ringing[0]!;
    assert.deepEqual(
      { ...rings, startedAt: undefined },
      { converseId: dm.id, callerId: caller.id, startedAt: undefined },
    );
    assert.ok(Math.abs(Date.parse(rings.startedAt) - Date.now()) < 60_000, rings.startedAt);
    // An app that connects now asks what rings for it: the callee is told, the caller is not.
    assert.deepEqual(await ok<CallRinging[]>('GET', '/api/calls/ringing', callee), [rings]);
    assert.deepEqual(await ok<CallRinging[]>('GET', '/api/calls/ringing', caller), []);
    await room.disconnect();
    await until('a missed call recorded', () => callRecords().length === 1, WEBHOOK_DEADLINE_MS);
    const missed = callRecords()[0]!;
    assert.equal(missed.authorId, caller.id);
    assert.equal(missed.call?.outcome, 'missed');
    assert.equal(missed.content, 'Missed call');

    // Answered: both in, then both out: one record of a call that ended.
    room = await joinCall(caller, dm.id);
    await until('it rings again', () => ringing.length === 2, WEBHOOK_DEADLINE_MS);
    // Listening before the callee joins: their join's update can reach the caller before `connect` returns.
    const seen = record(callerSocket, 'call:updated');
    const answer = await joinCall(callee, dm.id);
    await updateWhere(seen, 0, dm.id, (s) => s.participants.length === 2, 'both in the DM call');
    await answer.disconnect();
    await room.disconnect();
    await until('the answered call recorded', () => callRecords().length === 2, WEBHOOK_DEADLINE_MS);
    assert.equal(callRecords()[1]!.call?.outcome, 'ended');

    // Declined: the caller is told, LiveKit ends the call, and the DM says so.
    room = await joinCall(caller, dm.id);
    const gone = new Promise<void>((resolve) => room.once('disconnected', () => resolve()));
    await until('it rings a third time', () => ringing.length === 3, WEBHOOK_DEADLINE_MS);
    await ok('POST', `/api/converses/${dm.id}/call/decline`, callee, undefined, 204);
    await until('the caller told of the decline', () => declined.length === 1);
    assert.deepEqual(declined[0], { converseId: dm.id, userId: callee.id });
    await gone;
    await until('the declined call recorded', () => callRecords().length === 3, WEBHOOK_DEADLINE_MS);
    assert.equal(callRecords()[2]!.call?.outcome, 'declined');
    // Nothing rings any more: declining again is a conflict, and the history has the three records once each.
    await refused('POST', `/api/converses/${dm.id}/call/decline`, callee, 409, 'IM_ERR_CONFLICT');
    assert.deepEqual(await ok<CallRinging[]>('GET', '/api/calls/ringing', callee), []);
    const history = await ok<Message[]>('GET', `/api/converses/${dm.id}/messages`, caller);
    assert.deepEqual(
      history.filter((m) => m.call).map((m) => m.call!.outcome),
      ['missed', 'ended', 'declined'],
    );
  });

  it('refuses webhooks that LiveKit did not sign, and changes nothing for them', async () => {
    const { owner, groupId } = await groupWithMembers(api, 0, 'Quiet');
    const panel = await voicePanel(owner, groupId);
    const body = JSON.stringify({
      event: 'participant_joined',
      room: { name: panel.converseId },
      participant: { sid: 'PA_forged', identity: owner.id, joinedAt: String(Math.floor(Date.now() / 1000)) },
      id: 'EV_forged',
      createdAt: String(Math.floor(Date.now() / 1000)),
    });
    const hash = createHash('sha256').update(body).digest('base64');
    const signed = async (secret: string, sha256 = hash) => {
      const token = new AccessToken(livekit.apiKey, secret);
      token.sha256 = sha256;
      return token.toJwt();
    };
    const post = (authorization: string | undefined, payload = body) =>
      api.request<{ error: { code: string } }>('POST', '/api/livekit/webhook', {
        raw: payload,
        headers: { 'content-type': 'application/webhook+json', ...(authorization ? { authorization } : {}) },
      });

    for (const [what, authorization, payload] of [
      ['no signature', undefined, body],
      ['a signature by another secret', await signed('x'.repeat(40)), body],
      ['a signature of another body', await signed(livekit.apiSecret, 'A'.repeat(44)), body],
      ['a signed body changed after signing', await signed(livekit.apiSecret), body.replace('PA_forged', 'PA_other')],
      ['not a JWT', 'Bearer nonsense', body],
    ] as const) {
      const res = await post(authorization, payload);
      assert.equal(res.status, 401, `${what}: ${res.status}`);
      assert.equal(res.body.error.code, 'IM_ERR_UNAUTHORIZED', what);
    }
    assert.deepEqual((await callOf(owner, panel.converseId)).participants, [], 'nobody appeared in the call');

    // Signed with the right secret but not JSON: a clear 400, never a 500.
    const garbage = 'not json';
    const garbled = await post(
      await signed(livekit.apiSecret, createHash('sha256').update(garbage).digest('base64')),
      garbage,
    );
    assert.equal(garbled.status, 400);
  });

  it('rings a DM call started again while the last one is still being closed, and records both', async () => {
    const caller = await api.user('again');
    const callee = await api.user('later');
    const dm = await ok<DmConverse>('POST', '/api/dms', caller, { userId: callee.id });
    const calleeSocket = await socketOf(callee);
    const ringing = record(calleeSocket, 'call:ringing');
    const messages = record(calleeSocket, 'message:new');
    const records = () => messages.filter((m) => m.converseId === dm.id && m.call).map((m) => m.call!.outcome);
    let n = 0;
    /** A webhook as LiveKit sends it, signed with the server's secret. */
    const webhook = async (event: string, sid: string) => {
      n += 1;
      const now = String(Math.floor(Date.now() / 1000));
      const body = JSON.stringify({
        event,
        room: { name: dm.id },
        participant: { sid, identity: caller.id, joinedAt: now },
        id: `EV_again_${n}`,
        createdAt: now,
      });
      const token = new AccessToken(livekit.apiKey, livekit.apiSecret);
      token.sha256 = createHash('sha256').update(body).digest('base64');
      const res = await api.request('POST', '/api/livekit/webhook', {
        raw: body,
        headers: { 'content-type': 'application/webhook+json', authorization: await token.toJwt() },
      });
      assert.ok(res.status < 300, `${event}: ${res.status}`);
    };

    await webhook('participant_joined', 'PA_first');
    await until('the callee rings', () => ringing.length === 1, WEBHOOK_DEADLINE_MS);
    // The caller hung up and the call is being closed: nobody in it, its document not yet removed.
    const db = await mongoose.createConnection(api.env.mongoUrl).asPromise();
    try {
      const { matchedCount } = await db
        .collection('calls')
        .updateOne({ _id: new Types.ObjectId(dm.id) }, { $set: { participants: [] } });
      assert.equal(matchedCount, 1);
    } finally {
      await db.close();
    }
    // Calling back at that moment is a new call: it rings again, and the first is recorded as missed.
    await webhook('participant_joined', 'PA_second');
    await until('it rings again', () => ringing.length === 2, WEBHOOK_DEADLINE_MS);
    await until('the first call recorded', () => records().length === 1, WEBHOOK_DEADLINE_MS);
    assert.deepEqual(records(), ['missed']);
    assert.deepEqual(
      (await callOf(caller, dm.id)).participants.map((p) => p.userId),
      [caller.id],
    );
    await webhook('participant_left', 'PA_second');
    await until('the second call recorded', () => records().length === 2, WEBHOOK_DEADLINE_MS);
    assert.deepEqual(records(), ['missed', 'missed']);
  });

  it('takes a member who leaves the group out of its call, and ends the call of a deleted panel', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 1, 'Crew');
    const [leaver] = members as [User];
    const panel = await voicePanel(owner, groupId);
    const seen = record(await socketOf(owner), 'call:updated');
    const ownerRoom = await joinCall(owner, panel.converseId);
    const leaverRoom = await joinCall(leaver, panel.converseId);
    const leaverGone = new Promise<void>((resolve) => leaverRoom.once('disconnected', () => resolve()));
    await updateWhere(seen, 0, panel.converseId, (s) => s.participants.length === 2, 'both in the call');

    const beforeLeave = seen.length;
    await ok('DELETE', `/api/groups/${groupId}/members/${leaver.id}`, leaver, undefined, 204);
    await leaverGone;
    await updateWhere(
      seen,
      beforeLeave,
      panel.converseId,
      (s) => s.participants.length === 1 && s.participants[0]!.userId === owner.id,
      'the former member out of the call',
    );

    // Their token still has most of its hour: coming back with it, they are taken out again as LiveKit reports it.
    const beforeReturn = seen.length;
    const returned = await connect(grants.get(leaverRoom)!);
    const sentAway = new Promise<void>((resolve) => returned.once('disconnected', () => resolve()));
    await sentAway;
    assert.ok(
      seen.slice(beforeReturn).every((s) => !s.participants.some((p) => p.userId === leaver.id)),
      'the former member never listed again',
    );

    const ownerGone = new Promise<void>((resolve) => ownerRoom.once('disconnected', () => resolve()));
    await ok('DELETE', `/api/groups/${groupId}/panels/${panel.id}`, owner, undefined, 204);
    await ownerGone;
  });

  it('takes a member a private voice panel no longer allows out of its call; their token brings them no further', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 1, 'Inner');
    const [guest] = members as [User];
    const panel = await ok<Panel>(
      'POST',
      `/api/groups/${groupId}/panels`,
      owner,
      { name: 'backroom', type: 'voice', private: true, allowUserIds: [guest.id] },
      201,
    );
    const seen = record(await socketOf(owner), 'call:updated');
    await joinCall(owner, panel.converseId);
    const guestRoom = await joinCall(guest, panel.converseId);
    let guestGone = false;
    guestRoom.once('disconnected', () => (guestGone = true));
    await updateWhere(seen, 0, panel.converseId, (s) => s.participants.length === 2, 'both in the call');

    const beforeRevoke = seen.length;
    await ok('PATCH', `/api/groups/${groupId}/panels/${panel.id}`, owner, { allowUserIds: [] });
    await until('the guest to be sent away', () => guestGone, WEBHOOK_DEADLINE_MS);
    await updateWhere(
      seen,
      beforeRevoke,
      panel.converseId,
      (s) => s.participants.length === 1 && s.participants[0]!.userId === owner.id,
      'the guest out of the call',
    );
    await refused('POST', `/api/converses/${panel.converseId}/call/join`, guest, 404, 'IM_ERR_NOT_FOUND');
    // The token they hold still has most of its hour: coming back with it, they are sent away again.
    const returned = await connect(grants.get(guestRoom)!);
    let sentAway = false;
    returned.once('disconnected', () => (sentAway = true));
    await until('the returning guest to be sent away', () => sentAway || !returned.isConnected, WEBHOOK_DEADLINE_MS);
  });

  it('lets a member muted in the group only listen in the call they are in, and speak again once unmuted', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 1, 'Debate');
    const [speaker] = members as [User];
    const panel = await voicePanel(owner, groupId);
    const seen = record(await socketOf(owner), 'call:updated');
    await joinCall(speaker, panel.converseId, { microphone: true });
    await updateWhere(seen, 0, panel.converseId, (s) => s.participants.some((p) => p.audio), 'the speaker in the call');
    const mayPublish = async () => (await inLiveKit(panel.converseId, speaker.id))?.permission?.canPublish;
    assert.equal(await mayPublish(), true);

    await ok('PUT', `/api/groups/${groupId}/members/${speaker.id}/mute`, owner, { seconds: 600 }, 204);
    assert.equal(await eventually(mayPublish, (v) => v === false, 20_000), false, 'muted: listening only');
    await ok('PUT', `/api/groups/${groupId}/members/${speaker.id}/mute`, owner, { seconds: 0 }, 204);
    assert.equal(await eventually(mayPublish, (v) => v === true, 20_000), true, 'unmuted: speaking again');
  });
});

describe('voice and video without a LiveKit server', () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url, { VOICE: 'off' });
  });
  after(() => api?.close());

  it('answers 503 to a join and to a webhook, and still tells members who is in a call (nobody)', async () => {
    const { owner, groupId } = await groupWithMembers(api, 0, 'Silent');
    const panel = await api.request<Panel>('POST', `/api/groups/${groupId}/panels`, {
      token: owner.token,
      body: { name: 'lounge', type: 'voice' },
    });
    const join = await api.request<{ error: { code: string } }>(
      'POST',
      `/api/converses/${panel.body.converseId}/call/join`,
      {
        token: owner.token,
      },
    );
    assert.equal(join.status, 503);
    assert.equal(join.body.error.code, 'IM_ERR_SERVICE_UNAVAILABLE');
    const hook = await api.request('POST', '/api/livekit/webhook', { raw: '{}', headers: { authorization: 'x' } });
    assert.equal(hook.status, 503);
    const state = await api.request<CallState>('GET', `/api/converses/${panel.body.converseId}/call`, {
      token: owner.token,
    });
    assert.deepEqual(state.body, { converseId: panel.body.converseId, participants: [] });
  });
});
