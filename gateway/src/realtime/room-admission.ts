import pLimit, { type LimitFunction } from 'p-limit';

export interface RoomAdmissionOptions {
  /** Room loads in progress at once (SOCKET_ROOM_LOADS): what the node and its services sustain. */
  concurrency: number;
  /** Sockets waiting beyond that (SOCKET_CONNECT_BACKLOG): past it, new connects are asked to come back later. */
  backlog: number;
}

/** Jitter for "retry later": clients refused together must not come back together. */
const RETRY_AFTER_MS = { min: 1_000, spread: 4_000 };

/**
 * Admits connected sockets to their room lookup at the rate the node can
 * sustain: a queue with backpressure instead of a timeout that disconnects.
 * A storm waits its turn (each socket is connected and loses nothing while it
 * waits, see RoomJournal); only a backlog past its bound refuses new
 * handshakes, each told to retry after its own random delay.
 */
export class RoomAdmission {
  readonly #limit: LimitFunction;
  readonly #backlog: number;

  constructor(options: RoomAdmissionOptions) {
    this.#limit = pLimit(options.concurrency);
    this.#backlog = options.backlog;
  }

  /** Sockets waiting for their turn. */
  get waiting(): number {
    return this.#limit.pendingCount;
  }

  /** Room loads in progress. */
  get loading(): number {
    return this.#limit.activeCount;
  }

  /** Whether a new socket would wait past the backlog: the handshake is refused then. */
  get full(): boolean {
    return this.#limit.pendingCount >= this.#backlog;
  }

  /** A delay for a refused client: 1-5 s, different for each. */
  retryAfterMs(): number {
    return Math.round(RETRY_AFTER_MS.min + Math.random() * RETRY_AFTER_MS.spread);
  }

  run<T>(load: () => Promise<T>): Promise<T> {
    return this.#limit(load);
  }
}
