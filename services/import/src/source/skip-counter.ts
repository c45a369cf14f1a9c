/** Things an import passed over, counted by reason (`system message`, `file missing from the export`...). */
export class SkipCounter {
  readonly #counts = new Map<string, number>();

  add(reason: string, count = 1): void {
    if (count > 0) this.#counts.set(reason, (this.#counts.get(reason) ?? 0) + count);
  }

  get total(): number {
    let sum = 0;
    for (const n of this.#counts.values()) sum += n;
    return sum;
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries([...this.#counts].sort((a, b) => b[1] - a[1]));
  }
}
