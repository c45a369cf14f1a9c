import { call, SESSION_CHECK_BATCH, toHttpError, unavailable } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';

export interface SessionChecksOptions {
  /** Batches in flight at once: what the user service sustains (a storm queues here, not in the broker). */
  concurrency?: number;
  /** Tries of one batch before its sockets are refused (503), after 0.25, 0.5, 1, 2 s (±50%). */
  attempts?: number;
}

interface Pending {
  sessionId: string;
  userId: string;
  resolve: (live: boolean) => void;
  reject: (err: unknown) => void;
}

const backoffMs = (attempt: number) => 250 * 2 ** attempt * (0.5 + Math.random());
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A failure worth another try: the service was slow, restarting or not there yet. */
const retryable = (err: unknown) => toHttpError(err).status === 503;

/**
 * Asks the user service whether tokens' sessions are live, many per call.
 * Checks queue here; at most `concurrency` `user.sessionsLive` calls are in
 * flight, each taking up to SESSION_CHECK_BATCH of the waiting checks, and a
 * check already waiting for a session is shared. So a reconnect storm of
 * 10,000 fresh sockets costs about 20 calls, admitted at the rate the
 * service answers, instead of 10,000 calls racing the broker's timeout; a
 * batch that fails for want of the service is tried again before anyone is
 * refused.
 */
export class SessionChecks {
  readonly #broker: ServiceBroker;
  readonly #concurrency: number;
  readonly #attempts: number;
  #queued: Pending[] = [];
  #inFlight = 0;
  #scheduled = false;
  readonly #shared = new Map<string, Promise<boolean>>();

  constructor(broker: ServiceBroker, options: SessionChecksOptions = {}) {
    this.#broker = broker;
    this.#concurrency = options.concurrency ?? 4;
    this.#attempts = options.attempts ?? 5;
  }

  /** Checks waiting for a call (a storm's queue). */
  get waiting(): number {
    return this.#queued.length;
  }

  isLive(sessionId: string, userId: string): Promise<boolean> {
    const key = `${sessionId}:${userId}`;
    const shared = this.#shared.get(key);
    if (shared) return shared;
    const check = new Promise<boolean>((resolve, reject) => {
      this.#queued.push({ sessionId, userId, resolve, reject });
      // The checks of one turn go together; a full batch goes at once.
      if (this.#queued.length >= SESSION_CHECK_BATCH) this.#pump();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.#pump();
        });
      }
    }).finally(() => this.#shared.delete(key));
    this.#shared.set(key, check);
    return check;
  }

  /** Sends what waits, while calls are free; a call's end sends the next batch. */
  #pump(): void {
    while (this.#inFlight < this.#concurrency && this.#queued.length > 0) {
      const batch = this.#queued.splice(0, SESSION_CHECK_BATCH);
      this.#inFlight += 1;
      void this.#send(batch).finally(() => {
        this.#inFlight -= 1;
        this.#pump();
      });
    }
  }

  async #send(batch: Pending[]): Promise<void> {
    try {
      const live = await this.#ask(batch.map(({ sessionId, userId }) => ({ sessionId, userId })));
      batch.forEach((p, i) => p.resolve(live[i] === true));
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }

  async #ask(claims: Array<{ sessionId: string; userId: string }>): Promise<boolean[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await call(this.#broker, 'user.sessionsLive', { claims });
      } catch (err) {
        if (!retryable(err)) throw err;
        if (attempt >= this.#attempts) throw unavailable('Sessions cannot be checked right now; retry later');
        await pause(backoffMs(attempt - 1));
      }
    }
  }
}
