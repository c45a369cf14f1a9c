import type { Logger } from '@im/sdk';

/**
 * Runs `work` when something is due: at the nearest due time this node
 * knows (what `work` answers, or what `wake` is told), and at least every
 * `pollMs`, to find what other nodes stored or what a restart left. One run
 * at a time; a wake during a run asks for another right after.
 */
export class DueTimer {
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;
  #running = false;
  #again = false;
  #stopped = true;

  readonly #pollMs: number;
  readonly #work: () => Promise<Date | null>;
  readonly #logger: Pick<Logger, 'error'>;

  constructor(pollMs: number, work: () => Promise<Date | null>, logger: Pick<Logger, 'error'>) {
    this.#pollMs = pollMs;
    this.#work = work;
    this.#logger = logger;
  }

  start(): void {
    this.#stopped = false;
    this.#arm(0);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  /** Something falls due at `at`: run then if that is sooner than planned. */
  wake(at: Date): void {
    if (this.#stopped) return;
    if (this.#running) {
      if (at.getTime() <= Date.now()) this.#again = true;
      else if (at.getTime() < this.#timerAt) this.#nextAt = Math.min(this.#nextAt, at.getTime());
      return;
    }
    if (at.getTime() < this.#timerAt) this.#arm(at.getTime() - Date.now());
  }

  /** While a run goes on: the earliest time a wake asked for, kept for when it ends. */
  #nextAt = Infinity;

  #arm(delayMs: number): void {
    clearTimeout(this.#timer);
    const delay = Math.max(0, Math.min(delayMs, this.#pollMs));
    this.#timerAt = Date.now() + delay;
    this.#timer = setTimeout(() => void this.#run(), delay).unref();
  }

  async #run(): Promise<void> {
    if (this.#stopped) return;
    this.#running = true;
    this.#timerAt = Infinity;
    let next: number = Infinity;
    try {
      next = (await this.#work())?.getTime() ?? Infinity;
    } catch (err) {
      this.#logger.error({ err }, 'could not run the due scheduled messages and reminders');
    } finally {
      this.#running = false;
    }
    if (this.#stopped) return;
    next = Math.min(next, this.#nextAt);
    this.#nextAt = Infinity;
    if (this.#again) {
      this.#again = false;
      next = Date.now();
    }
    this.#arm(next - Date.now());
  }
}
