// A call LiveKit lost without a webhook (LiveKit killed mid-call, as when the
// machine of a single instance goes down) does not stay "going on" for ever:
// the call service compares its calls with LiveKit's rooms when it starts
// (and every few minutes), ends the call and records it in the DM.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallJoin, CallState, DmConverse, Message } from '@im/protocol';
import { freePort, startLiveKit, type LiveKitServerHandle } from '@im/dev-servers';
import { dispose, Room } from '@livekit/rtc-node';
import type { RunningNode } from '../../src/node.ts';
import { eventually, startSingleNode, type ApiHarness } from '../api/harness.ts';
import { connectClient, record, until } from '../realtime/client.ts';
import { startApiWithLiveKit } from './with-livekit.ts';

describe('calls LiveKit lost without a word', () => {
  let api: ApiHarness;
  let first: LiveKitServerHandle;
  let second: LiveKitServerHandle | undefined;
  let restarted: RunningNode | undefined;
  const rooms: Room[] = [];

  before(async () => {
    ({ api, livekit: first } = await startApiWithLiveKit(import.meta.url));
  });

  after(async () => {
    for (const room of rooms) await room.disconnect().catch(() => undefined);
    await dispose();
    await restarted?.stop();
    await api?.env.close();
    await first?.stop();
    await second?.stop();
  });

  it('ends a DM call whose LiveKit room is gone when the platform starts again, and records it as missed', async () => {
    const caller = await api.user('caller');
    const callee = await api.user('callee');
    const dm = (await api.request<DmConverse>('POST', '/api/dms', { token: caller.token, body: { userId: callee.id } }))
      .body;
    const ringing = record(await connectClient(api.base, callee.token), 'call:ringing');
    const grant = (await api.request<CallJoin>('POST', `/api/converses/${dm.id}/call/join`, { token: caller.token }))
      .body;
    const room = new Room();
    rooms.push(room);
    await room.connect(grant.url, grant.token);
    await until('the callee rings', () => ringing.length === 1, 20_000);

    // LiveKit dies at once (no leave, no room_finished webhook); the platform goes down too.
    process.kill(-first.process.pid!, 'SIGKILL');
    await first.process.exited;
    await api.node.stop();

    // Back up: a fresh LiveKit with the same keys, and the platform on the same database.
    const port = await freePort();
    second = await startLiveKit({
      apiKey: first.apiKey,
      apiSecret: first.apiSecret,
      webhookUrls: [`http://127.0.0.1:${port}/api/livekit/webhook`],
    });
    const { node, base } = await startSingleNode(api.env, {
      PORT: String(port),
      VOICE: 'on',
      LIVEKIT_URL: second.url,
      LIVEKIT_API_KEY: first.apiKey,
      LIVEKIT_API_SECRET: first.apiSecret,
    });
    restarted = node;
    const get = async <T>(path: string, token: string) =>
      (await (await fetch(base + path, { headers: { authorization: `Bearer ${token}` } })).json()) as T;

    const records = await eventually(
      async () => (await get<Message[]>(`/api/converses/${dm.id}/messages`, callee.token)).filter((m) => m.call),
      (found) => found.length > 0,
      20_000,
    );
    assert.deepEqual(
      records.map((m) => [m.authorId, m.call?.outcome]),
      [[caller.id, 'missed']],
    );
    assert.deepEqual((await get<CallState>(`/api/converses/${dm.id}/call`, caller.token)).participants, []);
  });
});
