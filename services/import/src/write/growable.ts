/** A typed array that grows by doubling: one slot per message of an export, a few bytes each. */
export class Growable<T extends Uint32Array | Float64Array> {
  #data: T;
  length = 0;

  readonly #make: (size: number) => T;

  constructor(make: (size: number) => T) {
    this.#make = make;
    this.#data = make(1024);
  }

  push(value: number): void {
    if (this.length === this.#data.length) {
      const bigger = this.#make(this.#data.length * 2);
      bigger.set(this.#data);
      this.#data = bigger;
    }
    this.#data[this.length++] = value;
  }

  /** The filled part (a view, not a copy). */
  view(): T {
    return this.#data.subarray(0, this.length) as T;
  }
}
