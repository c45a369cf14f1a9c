// Messages between the benchmark coordinator and its client processes (IPC).

export interface ConnectTarget {
  url: string;
  token: string;
  /** A loopback source address, so one machine can open more sockets than one address has ports. */
  localAddress?: string;
}

/** The socket.io parser both ends use: the default JSON one, or msgpack (binary frames). */
export type Parser = 'json' | 'msgpack';

export type Command =
  | {
      type: 'connect';
      targets: ConnectTarget[];
      /** Connections opening at once in this process. */
      concurrency: number;
      /** Run `sync` with these cursors once connected (the join-storm's last step). */
      sync?: Record<string, number>;
      /**
       * Send that `sync` as soon as the socket is connected without holding its
       * lane (as a real client does), and reply once every socket is connected;
       * `synced` then waits for the answers.
       */
      syncInBackground?: boolean;
      /** Names these sockets apart from the process's others (a benchmark arm); `collect` counts one set. */
      set?: string;
      parser?: Parser;
    }
  | { type: 'collect'; key: string; timeoutMs: number; set?: string }
  | { type: 'synced'; timeoutMs: number }
  | { type: 'send'; senders: Array<{ socket: number; converseId: string }>; perSecond: number; durationMs: number }
  | { type: 'latencies' }
  | { type: 'stats' }
  | { type: 'disconnect' };

export type Reply =
  | {
      type: 'connected';
      ok: number;
      failed: number;
      errors: string[];
      /** Per socket that made it, when it was ready (epoch ms, fractional). */
      readyAt: number[];
    }
  | {
      type: 'synced';
      ok: number;
      failed: number;
      errors: string[];
      /** Per socket whose sync was answered, when (epoch ms, fractional). */
      syncedAt: number[];
    }
  | {
      type: 'collected';
      sockets: number;
      received: number;
      duplicates: number;
      /** Receive times (epoch ms, fractional) of the sockets that got it. */
      times: number[];
    }
  | { type: 'sent'; sent: number; acked: number; failed: number; errors: string[]; ackMs: number[] }
  | { type: 'latencies'; deliveries: number; latencyMs: number[] }
  | { type: 'stats'; cpuMicros: number; rssBytes: number; sockets: number; disconnects: Record<string, number> }
  | { type: 'disconnected' };

export type Envelope<T> = T & { reqId: number };

/** Progress a client process reports on its own, between replies. */
export interface ProgressNote {
  type: 'progress';
  done: number;
}

/** Wall-clock time in ms with sub-ms precision, comparable across processes on one machine. */
export const now = (): number => performance.timeOrigin + performance.now();

/** Benchmark messages carry their send time so any receiver can compute the latency. */
export const stamp = (key: string): string => `${key}|${now()}`;
export const sentAt = (content: string): number => Number(content.slice(content.lastIndexOf('|') + 1));
