/**
 * A bound on the jobs of one key (a destination host) in progress at once.
 * A job whose key is full is parked, in arrival order, and takes over the
 * slot of the next job of its key to settle: parked jobs hold none of the
 * queue's delivery slots, so one slow destination cannot take them all, and
 * nothing is polled or retried on a timer to find room.
 */
export class KeyedSlots<J> {
  readonly #perKey: number;
  readonly #running = new Map<string, number>();
  readonly #parked = new Map<string, { jobs: J[]; head: number }>();
  #parkedCount = 0;

  constructor(perKey: number) {
    this.#perKey = Math.max(1, perKey);
  }

  /** Jobs parked, all keys together. */
  get parked(): number {
    return this.#parkedCount;
  }

  /** True: `job` may run now (it took a slot of its key). False: it was parked. No key: no bound. */
  admit(key: string | undefined, job: J): boolean {
    if (key === undefined) return true;
    const running = this.#running.get(key) ?? 0;
    if (running < this.#perKey) {
      this.#running.set(key, running + 1);
      return true;
    }
    let line = this.#parked.get(key);
    if (!line) this.#parked.set(key, (line = { jobs: [], head: 0 }));
    line.jobs.push(job);
    this.#parkedCount += 1;
    return false;
  }

  /** A job of `key` settled: the parked job of that key that takes its slot, if any (run it now). */
  release(key: string | undefined): J | undefined {
    if (key === undefined) return undefined;
    const line = this.#parked.get(key);
    if (line) {
      const next = line.jobs[line.head]!;
      line.jobs[line.head] = undefined as J; // not kept alive once taken
      line.head += 1;
      if (line.head === line.jobs.length) this.#parked.delete(key);
      else if (line.head >= 1024 && line.head * 2 >= line.jobs.length) {
        line.jobs = line.jobs.slice(line.head);
        line.head = 0;
      }
      this.#parkedCount -= 1;
      return next;
    }
    const running = (this.#running.get(key) ?? 1) - 1;
    if (running > 0) this.#running.set(key, running);
    else this.#running.delete(key);
    return undefined;
  }

  /** Forgets every parked job (the queue stopped). */
  clear(): void {
    this.#parked.clear();
    this.#running.clear();
    this.#parkedCount = 0;
  }
}
