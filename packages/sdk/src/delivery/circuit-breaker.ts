/** Failing destinations remembered at most; the one that failed longest ago is forgotten first. */
export const MAX_DESTINATIONS = 10_000;

/**
 * Per destination (an endpoint origin, a webhook): after `threshold` failures in a row the circuit opens
 * and requests wait `openMs` before one is let through to test the endpoint.
 */
export class CircuitBreaker {
  readonly #state = new Map<string, { failures: number; openUntil: number }>();
  readonly #threshold: number;
  readonly #openMs: number;

  constructor(threshold = 5, openMs = 3_000) {
    this.#threshold = threshold;
    this.#openMs = openMs;
  }

  /** Milliseconds until the origin may be tried, 0 if now. */
  waitFor(origin: string): number {
    const s = this.#state.get(origin);
    if (!s || s.failures < this.#threshold) return 0;
    const wait = s.openUntil - Date.now();
    if (wait > 0) return wait;
    // Half-open: let this one through, and hold the others for another period.
    s.openUntil = Date.now() + this.#openMs;
    return 0;
  }

  success(origin: string): void {
    this.#state.delete(origin);
  }

  failure(origin: string): void {
    const s = this.#state.get(origin) ?? { failures: 0, openUntil: 0 };
    s.failures += 1;
    if (s.failures >= this.#threshold) s.openUntil = Date.now() + this.#openMs;
    // Newest last: a destination that stopped being tried (a deleted hook) is the first to go.
    this.#state.delete(origin);
    this.#state.set(origin, s);
    if (this.#state.size > MAX_DESTINATIONS) this.#state.delete(this.#state.keys().next().value!);
  }

  /** Destinations with failures on record (bounded by MAX_DESTINATIONS). */
  get size(): number {
    return this.#state.size;
  }
}
