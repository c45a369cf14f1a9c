/**
 * Holds a message's fan-out (its device lookup and its jobs) while the
 * in-memory queue already has `highWater` jobs to send: a burst of messages
 * faster than the deliveries then waits as one small pending handler per
 * message instead of a queued job per device, so the heap stays at its
 * working size. While a backlog exists, fan-outs go one at a time in arrival
 * order, each admitted once the backlog is below the mark again (so it
 * overshoots by at most one message's jobs). Retries waiting for their time
 * are not counted: an unreachable push service must not hold everyone else's
 * notifications.
 */
export class FanOutGate {
  readonly #backlog: () => number;
  readonly #highWater: number;
  readonly #pollMs: number;
  /** Resolves when the fan-out admitted last has enqueued its jobs. */
  #lane: Promise<void> = Promise.resolve();
  #queued = 0;
  #stopped = false;

  constructor(backlog: () => number, highWater: number, pollMs = 5) {
    this.#backlog = backlog;
    this.#highWater = highWater;
    this.#pollMs = pollMs;
  }

  /** Resolves when this fan-out may go ahead, with the function to call once its jobs are enqueued. */
  async admit(): Promise<() => void> {
    if (this.#queued === 0 && (this.#stopped || this.#backlog() < this.#highWater)) return () => undefined;
    this.#queued += 1;
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const previous = this.#lane;
    this.#lane = previous.then(() => mine);
    try {
      await previous;
      while (!this.#stopped && this.#backlog() >= this.#highWater)
        await new Promise((resolve) => setTimeout(resolve, this.#pollMs));
    } finally {
      this.#queued -= 1;
    }
    return release;
  }

  /** Lets every waiting fan-out through (the service is stopping). */
  stop(): void {
    this.#stopped = true;
  }
}
