import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { DmConverse, Group, Invite, Message } from '@im/protocol';
import { io } from 'socket.io-client';
import type { RunningNode } from '../../src/node.ts';
import { eventually, overNats, startApi, startExtraNode, type ApiHarness } from '../api/harness.ts';
import { record, sendOverSocket, sync, until, type ClientSocket } from './client.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

/** What every node of this test shares: Redis for presence and the room index; rooms are dropped at once. */
const shared = (api: ApiHarness): Record<string, string> => ({
  REDIS_URL: api.env.redisUrl,
  REDIS_KEY_PREFIX: api.env.redisPrefix,
  FANOUT_ROUTING_LINGER_MS: '0',
});

/**
 * Three gateways over NATS with FANOUT_ROUTING=rooms (the default): A also
 * runs every service, B and C run only the gateway. Each gateway's /metrics
 * tells what it heard from the cluster.
 */
describe('realtime events routed by room across three gateways', () => {
  let api: ApiHarness;
  const extra: RunningNode[] = [];
  const gw: Record<'A' | 'B' | 'C', string> = { A: '', B: '', C: '' };
  const sockets: ClientSocket[] = [];

  /** A socket whose `message:new` are recorded from its first packet on, connected and in its rooms. */
  const open = async (at: keyof typeof gw, user: User) => {
    const socket: ClientSocket = io(gw[at], {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token: user.token },
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    const messages = record(socket, 'message:new');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    await sync(socket, {});
    return { socket, messages };
  };

  const metric = async (at: keyof typeof gw, name: string): Promise<number> => {
    const text = await (await fetch(`${gw[at]}/metrics`)).text();
    const line = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
    assert.ok(line, `${name} missing from the metrics of gateway ${at}`);
    return Number(line[1]);
  };
  const received = (at: keyof typeof gw) => metric(at, 'im_gateway_room_events_received_total');
  const subscribed = (at: keyof typeof gw) => metric(at, 'im_gateway_room_subscriptions');

  const ok = async <T>(method: string, path: string, user: User, body?: unknown): Promise<T> => {
    const res = await api.request<T>(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const join = async (user: User, code: string) => ok('POST', `/api/invites/${code}/accept`, user);

  let owner: User; // of group G, on A
  let m1: User; // member of G, on B
  let m2: User; // member of G, comes to C later
  let x: User; // alone in group H, on C
  let g: Group;
  let gCode: string;
  let gConverse: string;
  let hConverse: string;
  let atOwner: Awaited<ReturnType<typeof open>>;
  let atM1: Awaited<ReturnType<typeof open>>;
  let atX: Awaited<ReturnType<typeof open>>;
  const sentInG: Message[] = [];
  let dm: DmConverse;

  before(async () => {
    api = await startApi(import.meta.url, (env) => ({
      ...overNats('gateway-a')(env),
      REDIS_URL: env.redisUrl,
      REDIS_KEY_PREFIX: env.redisPrefix,
      FANOUT_ROUTING_LINGER_MS: '0',
    }));
    gw.A = api.base;
    for (const id of ['B', 'C'] as const) {
      const node = await startExtraNode(api, {
        ...shared(api),
        SERVICES: 'gateway',
        NODE_ID: `gateway-${id.toLowerCase()}`,
        PORT: '0',
      });
      extra.push(node);
      await node.broker.waitForServices(['user', 'group', 'chat'], 20_000);
      const gateway = node.broker.getLocalService('gateway') as unknown as { address(): AddressInfo };
      gw[id] = `http://127.0.0.1:${gateway.address().port}`;
    }
    owner = await api.user('rro');
    m1 = await api.user('rr1');
    m2 = await api.user('rr2');
    x = await api.user('rrx');
    g = await ok<Group>('POST', '/api/groups', owner, { name: 'Routed' });
    gConverse = g.panels[0]!.converseId;
    gCode = (await ok<Invite>('POST', `/api/groups/${g.id}/invites`, owner, {})).code;
    for (const u of [m1, m2]) await join(u, gCode);
    hConverse = (await ok<Group>('POST', '/api/groups', x, { name: 'Elsewhere' })).panels[0]!.converseId;
    atOwner = await open('A', owner);
    atM1 = await open('B', m1);
    atX = await open('C', x);
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    for (const node of extra) await node.stop();
    await api?.close();
  });

  /** x, alone on C, sends in H and sees it come back: everything C was sent before it has arrived. */
  let controls = 0;
  const controlOnC = async () => {
    controls += 1;
    const sent = await sendOverSocket(atX.socket, hConverse, `control ${controls}`);
    await until('the control message on C', () => atX.messages.some((m) => m.id === sent.id));
  };

  const sendInG = async (text: string) => {
    const sent = await sendOverSocket(atOwner.socket, gConverse, text);
    sentInG.push(sent);
    return sent;
  };

  it('a gateway with no socket in a room hears none of its events, while one with a socket there does', async () => {
    await controlOnC();
    const [c0, b0] = [await received('C'), await received('B')];
    for (let i = 0; i < 5; i += 1) await sendInG(`only A and B ${i}`);
    const ids = sentInG.map((m) => m.id);
    await until('the five at the owner and m1', () =>
      [atOwner, atM1].every((at) => ids.every((id) => at.messages.some((m) => m.id === id))),
    );
    await controlOnC();
    // C heard the control message (one room) and nothing of G; B heard each of the five.
    assert.equal((await received('C')) - c0, 1);
    assert.ok((await received('B')) - b0 >= 5);
  });

  it('a gateway that gains a socket in the room hears it from then on, and the newcomer misses nothing', async () => {
    const cursor = sentInG.at(-1)!.seq;
    const c0 = await received('C');
    // m2 connects to C while the owner keeps sending.
    let arriving: Promise<Awaited<ReturnType<typeof open>>> | undefined;
    const during: Message[] = [];
    for (let i = 0; i < 20; i += 1) {
      during.push(await sendInG(`while m2 arrives ${i}`));
      if (i === 4) arriving = open('C', m2);
    }
    const atM2 = await arriving!;
    const last = during.at(-1)!;
    await until('the last message live at m2', () => atM2.messages.some((m) => m.id === last.id));
    const caughtUp = (await sync(atM2.socket, { [gConverse]: cursor })).converses[gConverse]!.messages;

    // Live: once each, and from its first on, every later one in order (the journal's replay included).
    const live = atM2.messages.filter((m) => m.converseId === gConverse);
    assert.equal(new Set(live.map((m) => m.id)).size, live.length);
    const firstLive = during.findIndex((m) => m.id === live[0]!.id);
    assert.deepEqual(
      live.map((m) => m.id),
      during.slice(firstLive).map((m) => m.id),
    );
    // Before that, its catch-up sync has them: nothing is missing.
    const seen = new Set([...live, ...caughtUp].map((m) => m.id));
    assert.deepEqual(
      during.filter((m) => !seen.has(m.id)),
      [],
    );
    assert.ok((await received('C')) - c0 >= live.length);

    // Every member on every gateway got every message exactly once.
    const ids = sentInG.map((m) => m.id);
    await until('all at the owner and m1', () =>
      [atOwner, atM1].every((at) => ids.every((id) => at.messages.some((m) => m.id === id))),
    );
    for (const at of [atOwner, atM1]) {
      const inG = at.messages.filter((m) => m.converseId === gConverse).map((m) => m.id);
      assert.deepEqual(inG, ids);
    }
  });

  it('a member who leaves stops getting the group, and a gateway left with no socket there stops hearing it', async () => {
    const left = record(atM1.socket, 'member:left');
    await ok('DELETE', `/api/groups/${g.id}/members/${m1.id}`, m1);
    await until('m1 told it left', () => left.some((e) => e.userId === m1.id));
    // B held G's rooms for m1 alone: it drops them (the linger is 0 here), keeping m1's own room.
    const rooms = await eventually(
      () => subscribed('B'),
      (n) => n === 1,
    );
    assert.equal(rooms, 1);

    const b0 = await received('B');
    const after = await sendInG('after m1 left');
    // Then something B does hold: a DM the owner opens with m1 reaches m1's room.
    const opened = record(atM1.socket, 'dm:opened');
    dm = await ok<DmConverse>('POST', '/api/dms', owner, { userId: m1.id });
    await until('the DM opened at m1 on B', () => opened.some((c) => c.id === dm.id));
    assert.equal((await received('B')) - b0, 1);
    assert.equal(
      atM1.messages.some((m) => m.id === after.id),
      false,
    );
  });

  it('a DM between users on different gateways is delivered once each way, though heard on two rooms', async () => {
    // The DM the owner opened with m1 above (opening it again would announce it again).
    const b0 = await received('B');
    const first = await sendOverSocket(atOwner.socket, dm.id, 'hello from A');
    const second = await sendOverSocket(atOwner.socket, dm.id, 'again from A');
    await until('both at m1', () => [first, second].every((s) => atM1.messages.some((m) => m.id === s.id)));
    // B holds the DM's room and m1's room: each message came twice, and was handled once.
    assert.equal((await received('B')) - b0, 4);
    const inDm = atM1.messages.filter((m) => m.converseId === dm.id).map((m) => m.id);
    assert.deepEqual(inDm, [first.id, second.id]);

    const reply = await sendOverSocket(atM1.socket, dm.id, 'hello from B');
    await until('the reply at the owner on A', () => atOwner.messages.some((m) => m.id === reply.id));
    assert.equal(atOwner.messages.filter((m) => m.id === reply.id).length, 1);
  });

  it('presence and typing are routed to the gateways of the group', async () => {
    const p = await api.user('rrp');
    await join(p, gCode);
    const presence = record(atOwner.socket, 'presence');
    const typing = record(atOwner.socket, 'typing');
    // p comes online on B, which holds nothing of G until then.
    const atP = await open('B', p);
    await until('p online at the owner on A', () => presence.some((e) => e.userId === p.id && e.online));
    const answer = (await atP.socket.timeout(5_000).emitWithAck('typing', { converseId: gConverse })) as {
      ok: boolean;
    };
    assert.equal(answer.ok, true);
    await until('p typing at the owner on A', () => typing.some((e) => e.userId === p.id));
    atP.socket.disconnect();
    await until('p offline at the owner on A', () => presence.some((e) => e.userId === p.id && !e.online));
  });

  it('a member who joins while connected is moved into the group on its gateway and hears it', async () => {
    const q = await api.user('rrq');
    const atQ = await open('B', q);
    const joined = record(atQ.socket, 'member:joined');
    await join(q, gCode);
    await until('q told it joined', () => joined.some((e) => e.userId === q.id));
    const sent = await sendInG('welcome q');
    await until('the message at q on B', () => atQ.messages.some((m) => m.id === sent.id));
  });

  it("a gateway keeping a converse's public page, and no socket there, hears its changes", async () => {
    const news = await ok<Group>('POST', '/api/groups', owner, { name: 'News' });
    const panel = news.panels[0]!;
    await ok('PATCH', `/api/groups/${news.id}`, owner, { visibility: 'public' });
    await ok('PATCH', `/api/groups/${news.id}/panels/${panel.id}`, owner, { webPublic: true });
    await ok('POST', `/api/converses/${panel.converseId}/messages`, owner, { content: 'first edition' });
    const page = async () => (await fetch(`${gw.C}/p/${panel.id}/feed.atom`)).text();
    assert.ok((await page()).includes('first edition'));
    // C keeps that page now; a later message must replace it (a kept page never expires by itself).
    await ok('POST', `/api/converses/${panel.converseId}/messages`, owner, { content: 'second edition' });
    const after = await eventually(page, (text) => text.includes('second edition'));
    assert.ok(after.includes('second edition'), "C's kept feed was not replaced");
  });

  it("a private panel's events reach the gateways of those it allows, live as it is given and taken", async () => {
    const [insider, outsider] = [await api.user('rri'), await api.user('rrz')];
    for (const u of [insider, outsider]) await join(u, gCode);
    // The insider on B, the outsider on C: each gateway holds G's room for them.
    const [atIn, atOut] = [await open('B', insider), await open('C', outsider)];
    const created = record(atIn.socket, 'panel:created');
    const outsiderCreated = record(atOut.socket, 'panel:created');
    const panel = await ok<{ id: string; converseId: string }>('POST', `/api/groups/${g.id}/panels`, owner, {
      name: 'inner',
      type: 'text',
      private: true,
      allowUserIds: [insider.id],
    });
    await until('the panel at the insider on B', () => created.some((e) => e.panel.id === panel.id));
    const inside = await sendOverSocket(atOwner.socket, panel.converseId, 'inside');
    await until('the message at the insider on B', () => atIn.messages.some((m) => m.id === inside.id));
    // A message in G after it: once the outsider has it, the private one would have come first.
    const marker = await sendInG('marker for the outsider');
    await until('the marker at the outsider on C', () => atOut.messages.some((m) => m.id === marker.id));
    assert.equal(
      atOut.messages.some((m) => m.id === inside.id),
      false,
    );
    assert.equal(outsiderCreated.length, 0);

    // Taken from the insider: the panel goes, and so do its messages.
    const deleted = record(atIn.socket, 'panel:deleted');
    await ok('PATCH', `/api/groups/${g.id}/panels/${panel.id}`, owner, { allowUserIds: [] });
    await until('the panel gone at the insider', () => deleted.some((e) => e.panelId === panel.id));
    const later = await sendOverSocket(atOwner.socket, panel.converseId, 'later');
    const marker2 = await sendInG('marker for the insider');
    await until('the marker at the insider on B', () => atIn.messages.some((m) => m.id === marker2.id));
    assert.equal(
      atIn.messages.some((m) => m.id === later.id),
      false,
    );
  });
});
