// The server side of each capacity sample: every gateway's /metrics (CPU,
// heap, RSS, event-loop delay p99 since the previous scrape, open sockets),
// and for processes that serve no /metrics (the cluster's service nodes, the
// database) CPU and RSS from /proc.
import { readFileSync } from 'node:fs';
import { cpuSeconds, heapUsedBytes, metric, rssBytes, scrape } from '../lib/metrics.ts';

const MiB = 2 ** 20;
/** Linux clock ticks per second (/proc/<pid>/stat times). */
const CLOCK_TICKS = 100;

export interface NodeReading {
  name: string;
  cpuCores: number;
  rssMiB: number;
  /** Only nodes with /metrics. */
  heapMiB?: number;
  eventLoopDelayMs?: number;
  sockets?: number;
}

export interface ServerReading {
  /** Platform nodes (gateways and service nodes), summed. */
  cpuCores: number;
  heapMiB: number;
  rssMiB: number;
  /** The worst gateway's event-loop delay p99 since the previous reading. */
  eventLoopDelayMs: number;
  sockets: number;
  /** The database process, when it runs on this machine (NaN otherwise). */
  dbCpuCores: number;
  nodes: NodeReading[];
}

/** A local process read from /proc: CPU seconds and RSS bytes. */
function procReading(pid: number): { cpuSeconds: number; rssBytes: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command.
  const cpu = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  const rss = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuSeconds: cpu, rssBytes: rss ? Number(rss[1]) * 1024 : NaN };
}

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

export class ServerSampler {
  readonly #gateways: readonly string[];
  readonly #processes: ReadonlyArray<{ name: string; pid: number }>;
  readonly #dbPid: number | undefined;
  /** Last CPU seconds per node, and when. */
  #last = new Map<string, { cpu: number; at: number }>();

  /**
   * `processes`: platform nodes without /metrics (read from /proc); `dbPid`:
   * the database server's process, when local.
   */
  constructor(
    gateways: readonly string[],
    processes: ReadonlyArray<{ name: string; pid: number }> = [],
    dbPid?: number,
  ) {
    this.#gateways = gateways;
    this.#processes = processes;
    this.#dbPid = dbPid;
  }

  /** CPU share since the previous reading of this node (NaN the first time). */
  #cpuCores(name: string, cpu: number, at: number): number {
    const prev = this.#last.get(name);
    this.#last.set(name, { cpu, at });
    return prev ? (cpu - prev.cpu) / ((at - prev.at) / 1000) : NaN;
  }

  async read(): Promise<ServerReading> {
    const nodes: NodeReading[] = await Promise.all(
      this.#gateways.map(async (base, i): Promise<NodeReading> => {
        const name = this.#gateways.length === 1 ? 'server' : `gateway-${i + 1}`;
        try {
          const s = await withTimeout(scrape(base), 5_000);
          return {
            name,
            cpuCores: this.#cpuCores(name, cpuSeconds(s), performance.now()),
            rssMiB: rssBytes(s) / MiB,
            heapMiB: heapUsedBytes(s) / MiB,
            eventLoopDelayMs: metric(s, 'im_nodejs_eventloop_lag_p99_seconds') * 1000,
            sockets: metric(s, 'im_gateway_sockets'),
          };
        } catch {
          return { name, cpuCores: NaN, rssMiB: NaN, heapMiB: NaN, eventLoopDelayMs: NaN, sockets: NaN };
        }
      }),
    );
    for (const { name, pid } of this.#processes) {
      try {
        const r = procReading(pid);
        nodes.push({ name, cpuCores: this.#cpuCores(name, r.cpuSeconds, performance.now()), rssMiB: r.rssBytes / MiB });
      } catch {
        nodes.push({ name, cpuCores: NaN, rssMiB: NaN });
      }
    }
    let dbCpuCores = NaN;
    if (this.#dbPid !== undefined) {
      try {
        dbCpuCores = this.#cpuCores('database', procReading(this.#dbPid).cpuSeconds, performance.now());
      } catch {
        // Gone or not readable.
      }
    }
    const sum = (pick: (n: NodeReading) => number | undefined) => nodes.reduce((s, n) => s + (pick(n) ?? 0), 0);
    const gateways = nodes.filter((n) => n.sockets !== undefined);
    return {
      cpuCores: sum((n) => n.cpuCores),
      heapMiB: sum((n) => n.heapMiB),
      rssMiB: sum((n) => n.rssMiB),
      eventLoopDelayMs: Math.max(...gateways.map((n) => n.eventLoopDelayMs ?? NaN)),
      sockets: sum((n) => n.sockets),
      dbCpuCores,
      nodes,
    };
  }
}
