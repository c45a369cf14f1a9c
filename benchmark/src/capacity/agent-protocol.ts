// Messages between the capacity coordinator and its client processes (IPC).
import type { CapacityConfig } from './config.ts';
import type { HistogramData } from './histogram.ts';

/** What a client process needs of the dataset: how users log in, who is in which group (mentions, DM partners). */
export interface AgentDataset {
  usernamePrefix: string;
  password: string;
  users: number;
  groups: Array<{ memberIndexes: number[]; converseIds: string[] }>;
}

export interface UserSlot {
  /** Dataset user index: logs in as `${usernamePrefix}${index}`. */
  index: number;
  gateway: string;
  /** Loopback source address of its socket (many sockets on one machine). */
  localAddress?: string;
}

export type AgentCommand =
  | { type: 'init'; dataset: AgentDataset; config: CapacityConfig; runTag: string; startedAt: number }
  /** Start these users, each after its delay (logins at the configured rate). */
  | { type: 'add'; users: Array<UserSlot & { delayMs: number }> }
  /** Stop these users: they finish what they are doing and close their sockets (not an error). */
  | { type: 'remove'; indexes: number[] }
  /** Figures since the last window. */
  | { type: 'window' }
  /** Every user stops acting; the reply comes once nothing is in flight. */
  | { type: 'quiesce' }
  /** The end: each connected user checks its converses against the server, syncs what it lacks, closes. */
  | { type: 'finish' };

export interface WindowReport {
  type: 'window';
  /** Request (HTTP and socket ack) times by request kind, answered ones (2xx or not). */
  requests: Record<string, HistogramData>;
  /** Failed requests by kind: non-2xx, failed ack, timeout, network error, unexpected disconnect. */
  errors: Record<string, number>;
  /** A few error descriptions of the window. */
  errorSamples: string[];
  /** Errors without an answer (timeouts, network errors, unexpected disconnects): requests = answered + these. */
  unanswered: number;
  /** Actions started by kind. */
  actions: Record<string, number>;
  /** `message:send` to its ack: the message is stored. */
  store: HistogramData;
  /** Send to live `message:new` at another member, per delivery. */
  broadcast: HistogramData;
  /** Gaps that stayed open past the grace period on connected sockets. */
  missed: number;
  /** Users started and not removed; of them, with a connected socket. */
  users: number;
  connected: number;
  /** This process's CPU so far (user + system, µs). */
  cpuMicros: number;
}

export interface FinishReport {
  type: 'finished';
  usersChecked: number;
  /** Gaps found at the end (live deliveries missing) before the final sync. */
  missedAtEnd: number;
  /** Gaps the final sync could not fill either: messages lost. */
  lost: number;
  /** A few descriptions of lost messages (converse and seq). */
  lostSamples: string[];
  /** Final checks that failed (the user could not ask the server). */
  checkErrors: number;
  cpuMicros: number;
}

export type AgentReply =
  | { type: 'ready' }
  | { type: 'added'; users: number }
  | { type: 'removed'; users: number }
  | WindowReport
  | { type: 'quiet'; inFlight: number }
  | FinishReport
  /** The command failed in the client process (a bug of the simulation, not of the server). */
  | { type: 'failed'; message: string };
