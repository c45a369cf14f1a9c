/** A small token bucket: `rate` per second on average, bursts up to `burst`. */
export class TokenBucket {
  #tokens: number;
  #last = performance.now();
  readonly #rate: number;
  readonly #burst: number;

  constructor(rate: number, burst: number) {
    this.#rate = rate;
    this.#burst = burst;
    this.#tokens = burst;
  }

  take(): boolean {
    const now = performance.now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#last) / 1000) * this.#rate);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /** Seconds until the next token. */
  get retryAfterSec(): number {
    return Math.max(1, Math.ceil((1 - this.#tokens) / this.#rate));
  }
}
