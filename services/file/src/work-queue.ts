/**
 * Runs async jobs a few at a time, with a bounded backlog: `add` answers
 * false (and drops the job) when the backlog is full.
 */
export class WorkQueue {
  readonly #concurrency: number;
  readonly #maxPending: number;
  readonly #pending: Array<() => Promise<void>> = [];
  #running = 0;

  constructor(options: { concurrency: number; maxPending: number }) {
    this.#concurrency = options.concurrency;
    this.#maxPending = options.maxPending;
  }

  add(job: () => Promise<void>): boolean {
    if (this.#pending.length >= this.#maxPending) return false;
    this.#pending.push(job);
    this.#next();
    return true;
  }

  /** Jobs waiting or running (for tests and metrics). */
  get size(): number {
    return this.#pending.length + this.#running;
  }

  #next(): void {
    while (this.#running < this.#concurrency && this.#pending.length > 0) {
      const job = this.#pending.shift()!;
      this.#running += 1;
      void job()
        .catch(() => undefined)
        .finally(() => {
          this.#running -= 1;
          this.#next();
        });
    }
  }
}
