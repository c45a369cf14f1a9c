// The coordinator's handle on its client processes: real socket.io clients
// spread over several processes, so the load generator is never one event
// loop that delays its own measurements.
import { fileURLToPath } from 'node:url';
import { IpcChild } from '../lib/ipc-child.ts';
import { progress } from '../lib/progress.ts';
import type { Command, ConnectTarget, Parser, ProgressNote, Reply } from './protocol.ts';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** Sockets per loopback source address: well under the ~28k ephemeral ports of one address. */
const SOCKETS_PER_ADDRESS = 20_000;

/**
 * The source address of the n-th socket. With `spread` > 1, round robin over
 * 127.0.0.1..127.0.0.<spread>, each bound explicitly (a bound socket takes its
 * port from its own address's range, whatever the destination); otherwise the
 * first SOCKETS_PER_ADDRESS from the default address, then 127.0.0.2 and on.
 */
export function sourceAddress(n: number, spread: number): string | undefined {
  if (spread > 1) return `127.0.0.${1 + (n % spread)}`;
  const overflow = Math.floor(n / SOCKETS_PER_ADDRESS);
  return overflow > 0 ? `127.0.0.${1 + overflow}` : undefined;
}

type ReplyOf<T extends Reply['type']> = Extract<Reply, { type: T }>;

/** One client process; `done` follows its progress notes while it connects. */
class Worker {
  readonly #ipc: IpcChild<Command, Reply | ProgressNote>;
  done = 0;

  constructor() {
    this.#ipc = new IpcChild(WORKER, [], {
      serialization: 'advanced',
      onMessage: (m) => {
        if (m.type === 'progress') this.done = m.done;
      },
    });
  }

  call<T extends Reply['type']>(cmd: Command): Promise<ReplyOf<T>> {
    return this.#ipc.call<ReplyOf<T>>(cmd);
  }

  close(): void {
    this.#ipc.close();
  }
}

export interface ConnectResult {
  ok: number;
  failed: number;
  errors: string[];
  /** Ready times (epoch ms) of every socket that made it. */
  readyAt: number[];
}

export interface Receipt {
  sockets: number;
  received: number;
  duplicates: number;
  times: number[];
}

export class Swarm {
  private readonly workers: Worker[];
  /** Sockets placed so far: the next one's process and source address follow from it. */
  private placed = 0;
  /** Which (process, index in it) each placed socket is. */
  readonly placement: Array<{ worker: number; index: number }> = [];
  private readonly perWorker: number[];
  /** Loopback source addresses to spread over (see sourceAddress). */
  private readonly sourceAddresses: number;

  constructor(processes: number, options: { sourceAddresses?: number } = {}) {
    this.workers = Array.from({ length: processes }, () => new Worker());
    this.perWorker = this.workers.map(() => 0);
    this.sourceAddresses = options.sourceAddresses ?? 1;
  }

  get size(): number {
    return this.placed;
  }

  /**
   * Opens one socket per target, round robin over the client processes and
   * the given gateway URLs (an account's own `url` wins); `concurrency`
   * connections open at once per process.
   */
  async connect(
    label: string,
    accounts: ReadonlyArray<{ token: string; url?: string }>,
    gateways: readonly string[],
    options: {
      concurrency: number;
      sync?: Record<string, number>;
      /** Reply once every socket is connected; their syncs go on (see `synced`). */
      syncInBackground?: boolean;
      /** A named set of sockets (a benchmark arm), for `collect`. */
      set?: string;
      parser?: Parser;
    },
  ): Promise<ConnectResult> {
    const batches: ConnectTarget[][] = this.workers.map(() => []);
    for (const account of accounts) {
      const n = this.placed++;
      const w = n % this.workers.length;
      const localAddress = sourceAddress(n, this.sourceAddresses);
      batches[w]!.push({
        url: account.url ?? gateways[n % gateways.length]!,
        token: account.token,
        ...(localAddress ? { localAddress } : {}),
      });
      this.placement.push({ worker: w, index: this.perWorker[w]!++ });
    }
    const bar = progress(label, accounts.length);
    const base = this.workers.map((w) => w.done);
    const timer = setInterval(() => bar.update(this.workers.reduce((s, w, i) => s + w.done - base[i]!, 0)), 200);
    try {
      const replies = await Promise.all(
        this.workers.map((w, i) =>
          w.call<'connected'>({
            type: 'connect',
            targets: batches[i]!,
            concurrency: options.concurrency,
            ...(options.sync ? { sync: options.sync } : {}),
            ...(options.syncInBackground ? { syncInBackground: true } : {}),
            ...(options.set !== undefined ? { set: options.set } : {}),
            ...(options.parser ? { parser: options.parser } : {}),
          }),
        ),
      );
      bar.update(accounts.length);
      return {
        ok: replies.reduce((s, r) => s + r.ok, 0),
        failed: replies.reduce((s, r) => s + r.failed, 0),
        errors: replies.flatMap((r) => r.errors).slice(0, 5),
        readyAt: replies.flatMap((r) => r.readyAt),
      };
    } finally {
      clearInterval(timer);
      bar.stop();
    }
  }

  /**
   * Waits until every socket (of `set`, if given) has the message keyed `key`
   * (or the timeout), and returns the receive times.
   */
  async collect(key: string, timeoutMs: number, set?: string): Promise<Receipt> {
    const replies = await Promise.all(
      this.workers.map((w) =>
        w.call<'collected'>({ type: 'collect', key, timeoutMs, ...(set !== undefined ? { set } : {}) }),
      ),
    );
    return {
      sockets: replies.reduce((s, r) => s + r.sockets, 0),
      received: replies.reduce((s, r) => s + r.received, 0),
      duplicates: replies.reduce((s, r) => s + r.duplicates, 0),
      times: replies.flatMap((r) => r.times),
    };
  }

  /** The answers to the syncs of the last `connect` with `syncInBackground`, waited for at most `timeoutMs`. */
  async synced(timeoutMs: number): Promise<{ ok: number; failed: number; errors: string[]; syncedAt: number[] }> {
    const replies = await Promise.all(this.workers.map((w) => w.call<'synced'>({ type: 'synced', timeoutMs })));
    return {
      ok: replies.reduce((s, r) => s + r.ok, 0),
      failed: replies.reduce((s, r) => s + r.failed, 0),
      errors: replies.flatMap((r) => r.errors).slice(0, 5),
      syncedAt: replies.flatMap((r) => r.syncedAt),
    };
  }

  /** Sends from the given swarm sockets at `perSecond` in total for `durationMs`. */
  async send(senders: Array<{ socket: number; converseId: string }>, perSecond: number, durationMs: number) {
    const byWorker = this.workers.map(() => [] as Array<{ socket: number; converseId: string }>);
    for (const s of senders) {
      const p = this.placement[s.socket]!;
      byWorker[p.worker]!.push({ socket: p.index, converseId: s.converseId });
    }
    const active = byWorker.map((list, i) => ({ list, w: this.workers[i]! })).filter((x) => x.list.length > 0);
    const replies = await Promise.all(
      active.map(({ list, w }) =>
        w.call<'sent'>({
          type: 'send',
          senders: list,
          perSecond: (perSecond * list.length) / senders.length,
          durationMs,
        }),
      ),
    );
    return {
      sent: replies.reduce((s, r) => s + r.sent, 0),
      acked: replies.reduce((s, r) => s + r.acked, 0),
      failed: replies.reduce((s, r) => s + r.failed, 0),
      errors: replies.flatMap((r) => r.errors).slice(0, 5),
      ackMs: replies.flatMap((r) => r.ackMs),
    };
  }

  /** Deliveries and send-to-deliver latencies since the last call. */
  async latencies() {
    const replies = await Promise.all(this.workers.map((w) => w.call<'latencies'>({ type: 'latencies' })));
    return {
      deliveries: replies.reduce((s, r) => s + r.deliveries, 0),
      latencyMs: replies.flatMap((r) => r.latencyMs),
    };
  }

  async stats() {
    const replies = await Promise.all(this.workers.map((w) => w.call<'stats'>({ type: 'stats' })));
    return {
      cpuMicros: replies.reduce((s, r) => s + r.cpuMicros, 0),
      rssBytes: replies.reduce((s, r) => s + r.rssBytes, 0),
      connected: replies.reduce((s, r) => s + r.sockets, 0),
      disconnects: replies.reduce<Record<string, number>>((all, r) => {
        for (const [why, n] of Object.entries(r.disconnects)) all[why] = (all[why] ?? 0) + n;
        return all;
      }, {}),
      processes: replies.length,
    };
  }

  /** Disconnects every socket and ends the client processes; returns their total CPU (µs). */
  async close(): Promise<number> {
    let cpu = 0;
    try {
      cpu = (await this.stats()).cpuMicros;
      await Promise.all(this.workers.map((w) => w.call<'disconnected'>({ type: 'disconnect' })));
    } finally {
      for (const w of this.workers) w.close();
    }
    return cpu;
  }
}
