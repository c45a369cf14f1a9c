/**
 * The ids most recently seen, at most `capacity` of them (the oldest go
 * first): a gateway that holds several rooms of one routed event receives
 * it once per room, back to back, and handles it once.
 */
export class RecentIds {
  readonly #ids = new Set<string>();
  readonly #capacity: number;

  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  /** Whether `id` was seen already; remembers it if not. */
  seen(id: string): boolean {
    if (this.#ids.has(id)) return true;
    this.#ids.add(id);
    if (this.#ids.size > this.#capacity) this.#ids.delete(this.#ids.values().next().value!);
    return false;
  }
}
