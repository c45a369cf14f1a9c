/** The longest the timer sleeps: digests another node scheduled are found within this. */
const MAX_SLEEP_MS = 60_000;

/**
 * One timer for every pending digest: it sleeps until the earliest due time
 * (at most MAX_SLEEP_MS), runs `run` (which sends what is due and answers
 * the next due time), and sleeps again. `wake` brings it forward when an
 * earlier digest is scheduled. Never two runs at once; `stop` cancels the
 * timer and waits for a run in progress.
 */
export class DigestTimer {
  readonly #run: () => Promise<number | undefined>;
  readonly #onError: (err: unknown) => void;
  #timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (Infinity: none armed). */
  #armedFor = Infinity;
  #running: Promise<void> | undefined;
  /** The timer fired during a run: run again right after it. */
  #again = false;
  #stopped = false;

  constructor(run: () => Promise<number | undefined>, onError: (err: unknown) => void) {
    this.#run = run;
    this.#onError = onError;
  }

  start(): void {
    this.wake(Date.now());
  }

  /** Something is due at `at` (epoch ms): the timer fires by then. */
  wake(at: number): void {
    if (this.#stopped || at >= this.#armedFor) return;
    clearTimeout(this.#timer);
    this.#armedFor = at;
    const wait = Math.min(Math.max(0, at - Date.now()), MAX_SLEEP_MS);
    this.#timer = setTimeout(() => this.#fire(), wait);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedFor = Infinity;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#run()
      .catch((err: unknown) => {
        this.#onError(err);
        return undefined;
      })
      .then((next) => {
        this.#running = undefined;
        const again = this.#again;
        this.#again = false;
        this.wake(again ? Date.now() : (next ?? Date.now() + MAX_SLEEP_MS));
      });
  }
}
