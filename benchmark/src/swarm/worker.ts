// One client process of the swarm: holds many real socket.io clients,
// connects them, records what they receive, sends when told. Started by
// swarm.ts with fork(); talks to the coordinator over IPC only.
import type { Ack, CommandAccepted, Message } from '@im/protocol';
import { connectSocket, type ClientSocket } from '../lib/client-socket.ts';
import { now, sentAt, stamp, type Command, type Envelope, type Reply } from './protocol.ts';

const sockets: ClientSocket[] = [];
/** Why sockets dropped, by reason (a benchmark's own disconnect included). */
const disconnects = new Map<string, number>();
/** Broadcast receipts per message key: each socket's receive time (0 = not yet), kept counts. */
interface Receipts {
  times: Float64Array<ArrayBuffer>;
  received: number;
  duplicates: number;
}
const receipts = new Map<string, Receipts>();
const receiptsOf = (key: string): Receipts => {
  let r = receipts.get(key);
  if (!r) receipts.set(key, (r = { times: new Float64Array(sockets.length), received: 0, duplicates: 0 }));
  return r;
};
/** Sockets per named set (a benchmark arm): a broadcast to one arm is complete when its set has it. */
const setSizes = new Map<string, number>();
/** Background syncs of the last `connect`: each socket's answer time or error once settled (never rejects). */
let syncs: Array<Promise<number | Error>> = [];
let sendSerial = 0;
/** Throughput receipts since the last `latencies` call. */
let latencyMs: number[] = [];
let deliveries = 0;

const reply = (reqId: number, r: Reply) => process.send!({ ...r, reqId });
const note = (done: number) => process.send!({ type: 'progress', done });

function onMessage(index: number, m: Message): void {
  const key = m.clientMsgId;
  if (!key) return;
  const t = now();
  if (key.startsWith('b:')) {
    const r = receiptsOf(key);
    // Sockets may have joined since the first receipt of this key (a storm still connecting).
    if (index >= r.times.length) {
      const grown = new Float64Array(sockets.length);
      grown.set(r.times);
      r.times = grown;
    }
    if (r.times[index]! > 0) r.duplicates += 1;
    else {
      r.times[index] = t;
      r.received += 1;
    }
  } else if (key.startsWith('t:')) {
    // Loss or duplication shows as deliveries against acked sends times recipients.
    deliveries += 1;
    latencyMs.push(t - sentAt(m.content));
  }
}

const syncOnce = async (socket: ClientSocket, cursors: Record<string, number>): Promise<number> => {
  const res = (await socket.timeout(60_000).emitWithAck('sync', { cursors })) as Ack<unknown>;
  if (!res.ok) throw new Error(`sync: ${res.error.code}`);
  return now();
};

async function connectOne(
  target: { url: string; token: string; localAddress?: string },
  cmd: Extract<Command, { type: 'connect' }>,
) {
  const socket = await connectSocket(target.url, target.token, {
    timeoutMs: 60_000,
    ...(target.localAddress ? { localAddress: target.localAddress } : {}),
    ...(cmd.parser ? { parser: cmd.parser } : {}),
    beforeConnect: (s) => {
      const index = sockets.push(s) - 1;
      s.on('message:new', (m) => onMessage(index, m));
      s.on('disconnect', (reason) => {
        disconnects.set(reason, (disconnects.get(reason) ?? 0) + 1);
      });
    },
  });
  const set = cmd.set ?? '';
  setSizes.set(set, (setSizes.get(set) ?? 0) + 1);
  if (!cmd.sync) return;
  // Settled into a value at once: a failure before anyone waits must not be an unhandled rejection.
  if (cmd.syncInBackground)
    syncs.push(
      syncOnce(socket, cmd.sync).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err)))),
    );
  else await syncOnce(socket, cmd.sync);
}

async function connect(cmd: Extract<Command, { type: 'connect' }>, reqId: number): Promise<void> {
  const readyAt: number[] = [];
  const errors: string[] = [];
  let failed = 0;
  let next = 0;
  const timer = setInterval(() => note(readyAt.length + failed), 250);
  if (cmd.syncInBackground) syncs = [];
  const lane = async () => {
    while (next < cmd.targets.length) {
      const target = cmd.targets[next++]!;
      try {
        await connectOne(target, cmd);
        readyAt.push(now());
      } catch (err) {
        failed += 1;
        if (errors.length < 5) errors.push(err instanceof Error ? err.message : String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(cmd.concurrency, cmd.targets.length) }, lane));
  clearInterval(timer);
  note(readyAt.length + failed);
  reply(reqId, { type: 'connected', ok: readyAt.length, failed, errors, readyAt });
}

async function collect(key: string, timeoutMs: number, set: string | undefined, reqId: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const r = receiptsOf(key);
  // Without a set: every socket of this process.
  const expected = set === undefined ? sockets.length : (setSizes.get(set) ?? 0);
  while (r.received < expected && Date.now() < deadline) await new Promise((res) => setTimeout(res, 5));
  receipts.delete(key);
  reply(reqId, {
    type: 'collected',
    sockets: expected,
    received: r.received,
    duplicates: r.duplicates,
    times: [...r.times].filter((t) => t > 0),
  });
}

/** Waits (bounded) for the answers to the syncs the last `connect` sent in the background. */
async function synced(timeoutMs: number, reqId: number): Promise<void> {
  // Each sync's outcome as it settles, so a timeout still reports those answered.
  const outcomes: Array<number | Error | undefined> = syncs.map(() => undefined);
  const all = Promise.all(syncs.map((p, i) => p.then((o) => void (outcomes[i] = o))));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([all, new Promise((res) => (timer = setTimeout(res, timeoutMs)))]);
  clearTimeout(timer);
  const syncedAt = outcomes.filter((o): o is number => typeof o === 'number');
  const errors = outcomes.filter((o): o is Error => o instanceof Error).map((e) => e.message);
  const unanswered = outcomes.filter((o) => o === undefined).length;
  if (unanswered > 0) errors.unshift(`${unanswered} syncs unanswered after ${timeoutMs} ms`);
  reply(reqId, {
    type: 'synced',
    ok: syncedAt.length,
    failed: outcomes.length - syncedAt.length,
    errors: errors.slice(0, 5),
    syncedAt,
  });
}

/** Sends at a steady rate from the given sockets, round robin, for a while; then waits for the last acks. */
async function send(cmd: Extract<Command, { type: 'send' }>, reqId: number): Promise<void> {
  let sent = 0;
  let acked = 0;
  let failed = 0;
  const errors: string[] = [];
  const ackMs: number[] = [];
  const started = now();
  let turn = 0;
  const sendOne = () => {
    const sender = cmd.senders[turn++ % cmd.senders.length]!;
    // Unique across steps: the server treats a repeated clientMsgId as a retry.
    const key = `t:${process.pid}:${sendSerial++}`;
    sent += 1;
    const t0 = now();
    sockets[sender.socket]!.timeout(30_000).emit(
      'message:send',
      { converseId: sender.converseId, content: stamp(key), clientMsgId: key },
      (err: Error | null, res: Ack<Message | CommandAccepted>) => {
        if (!err && res.ok) {
          acked += 1;
          ackMs.push(now() - t0);
        } else {
          failed += 1;
          if (errors.length < 5) errors.push(err ? err.message : `${res.ok ? '' : res.error.code}`);
        }
      },
    );
  };
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = now() - started;
      const due = Math.min(cmd.perSecond * (cmd.durationMs / 1000), Math.floor((elapsed / 1000) * cmd.perSecond));
      while (sent < due) sendOne();
      if (elapsed >= cmd.durationMs) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
  const deadline = Date.now() + 30_000;
  while (acked + failed < sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  reply(reqId, { type: 'sent', sent, acked, failed, errors, ackMs });
}

process.on('message', (raw: Envelope<Command>) => {
  const { reqId } = raw;
  switch (raw.type) {
    case 'connect':
      void connect(raw, reqId);
      break;
    case 'collect':
      void collect(raw.key, raw.timeoutMs, raw.set, reqId);
      break;
    case 'synced':
      void synced(raw.timeoutMs, reqId);
      break;
    case 'send':
      void send(raw, reqId);
      break;
    case 'latencies':
      reply(reqId, { type: 'latencies', deliveries, latencyMs });
      latencyMs = [];
      deliveries = 0;
      break;
    case 'stats': {
      const cpu = process.cpuUsage();
      reply(reqId, {
        type: 'stats',
        cpuMicros: cpu.user + cpu.system,
        rssBytes: process.memoryUsage.rss(),
        sockets: sockets.filter((s) => s.connected).length,
        disconnects: Object.fromEntries(disconnects),
      });
      break;
    }
    case 'disconnect':
      for (const s of sockets) s.disconnect();
      reply(reqId, { type: 'disconnected' });
      break;
  }
});
// The coordinator's end is this process's end.
process.on('disconnect', () => process.exit(0));
