/** What the gate reads of the in-memory queue (MemoryQueue). */
export interface Backlog {
  /** Jobs waiting to be sent now or being sent. */
  backlog(): number;
  /** Resolves with true once the backlog is below `mark`; with false if the queue is not running. */
  whenBacklogBelow(mark: number): Promise<boolean>;
}

/**
 * Holds a message's notification work (its reads, inbox entries and jobs)
 * while the in-memory queue has no room for its jobs: a burst of messages
 * faster than the deliveries then waits as one small pending handler per
 * message, and each message's work runs when its jobs can go out soon, so
 * what it allocates dies young instead of piling up for seconds behind the
 * deliveries (objects that outlive two scavenges are copied to V8's old
 * space, which then grows).
 *
 * A message is admitted, in arrival order, while the jobs waiting plus those
 * of the messages admitted and not yet enqueued (each counted by its
 * `weight`, its recipients) stay within `highWater`; one message is always
 * admitted when none is in progress and the backlog is below the mark, so a
 * message larger than the mark goes alone. Retries waiting for their time
 * are not counted: an unreachable push service must not hold everyone
 * else's notifications. Room is signalled by the queue as jobs settle: no
 * polling.
 */
export class FanOutGate {
  readonly #queue: Backlog;
  readonly #highWater: number;
  readonly #waiting: Array<{ weight: number; admit: () => void }> = [];
  /** Weight admitted whose jobs are not enqueued yet. */
  #inProgress = 0;
  /** The highest backlog mark a wait on the queue is pending for (0: none). */
  #watchMark = 0;
  #stopped = false;

  constructor(queue: Backlog, highWater: number) {
    this.#queue = queue;
    this.#highWater = highWater;
  }

  /**
   * Resolves when this message's work may go ahead, with the function to call once its jobs are
   * enqueued (or it made none). `weight`: its recipients as far as known (Infinity: not known yet).
   */
  admit(weight: number): Promise<() => void> {
    // A message larger than the mark counts as the mark: it goes alone.
    weight = Math.min(weight, this.#highWater);
    return new Promise((resolve) => {
      this.#waiting.push({ weight, admit: () => resolve(this.#start(weight)) });
      this.#next();
    });
  }

  /** Lets every waiting message through, and later ones at once (the service is stopping). */
  stop(): void {
    this.#stopped = true;
    this.#next();
  }

  #start(weight: number): () => void {
    this.#inProgress += weight;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inProgress -= weight;
      this.#next();
    };
  }

  /** The backlog below which a message of `weight` fits (≤ 0: only a release can make room). */
  #markFor(weight: number): number {
    return this.#inProgress === 0 ? this.#highWater : this.#highWater - this.#inProgress - weight + 1;
  }

  #next(): void {
    while (this.#waiting.length > 0) {
      const head = this.#waiting[0]!;
      const mark = this.#markFor(head.weight);
      if (!this.#stopped && this.#queue.backlog() >= mark) {
        // Room comes as deliveries settle (watched here) or as a message in progress releases (#start).
        if (mark > this.#watchMark) this.#watch(mark);
        return;
      }
      this.#waiting.shift();
      head.admit();
    }
  }

  #watch(mark: number): void {
    this.#watchMark = mark;
    void this.#queue.whenBacklogBelow(mark).then((running) => {
      if (this.#watchMark === mark) this.#watchMark = 0;
      // A queue that is not running will make no room: waiting on it would hold messages for ever.
      if (!running) this.#stopped = true;
      this.#next();
    });
  }
}
