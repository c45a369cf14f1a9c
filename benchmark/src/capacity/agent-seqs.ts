// What one simulated user has seen of each converse's seq numbers, to find
// messages that never arrived. Seqs grow by one per message with no gaps,
// so a connected socket that sees s and s+2 but not s+1 has a gap; a gap
// still open after a grace period is a missed live delivery; one that even a
// final sync from the server cannot fill is a lost message.

export class ConverseSeqs {
  /** Every seq up to here is accounted for. */
  contiguous: number;
  /** Seen above `contiguous` (out of order, or past a gap). */
  readonly #above = new Set<number>();
  /** Missing seqs below the highest seen: when each was first noticed, and whether it was already counted as missed. */
  readonly #missing = new Map<number, { since: number; counted: boolean }>();
  #highest: number;

  constructor(baseline: number) {
    this.contiguous = baseline;
    this.#highest = baseline;
  }

  get highest(): number {
    return this.#highest;
  }

  get missingCount(): number {
    return this.#missing.size;
  }

  /** Records one seq as seen (live, or from a sync answer). */
  see(seq: number, now: number): void {
    if (seq <= this.contiguous || this.#above.has(seq)) return;
    this.#missing.delete(seq);
    if (seq === this.contiguous + 1) {
      this.contiguous = seq;
      while (this.#above.delete(this.contiguous + 1)) this.contiguous += 1;
    } else {
      this.#above.add(seq);
      // Everything between the highest seen so far and this one is now known to be missing.
      for (let s = Math.max(this.#highest, this.contiguous) + 1; s < seq; s += 1) {
        if (!this.#above.has(s)) this.#missing.set(s, { since: now, counted: false });
      }
    }
    if (seq > this.#highest) this.#highest = seq;
  }

  /** The server says the converse has reached `lastSeq`: anything above what was seen is missing from now. */
  expect(lastSeq: number, now: number): void {
    for (let s = Math.max(this.#highest, this.contiguous) + 1; s <= lastSeq; s += 1) {
      if (!this.#above.has(s)) this.#missing.set(s, { since: now, counted: false });
    }
    if (lastSeq > this.#highest) this.#highest = lastSeq;
  }

  /** Counts (once each) the gaps open for longer than `graceMs`; returns how many were newly counted. */
  countOverdue(now: number, graceMs: number): number {
    let n = 0;
    for (const gap of this.#missing.values()) {
      if (!gap.counted && now - gap.since >= graceMs) {
        gap.counted = true;
        n += 1;
      }
    }
    return n;
  }

  /** Counts every open gap not counted yet (the end of the run); returns how many. */
  countAllOpen(): number {
    return this.countOverdue(Infinity, 0);
  }

  /**
   * After a reconnect: the sync from `contiguous` answers the gaps from before
   * the cut, so their clocks start again (those the sync fills were no loss).
   */
  restartClocks(now: number): void {
    for (const gap of this.#missing.values()) if (!gap.counted) gap.since = now;
  }

  /** The server said too many were missed to sync: start again from its last seq (a client pages history instead). */
  reset(lastSeq: number): void {
    this.contiguous = lastSeq;
    this.#highest = Math.max(this.#highest, lastSeq);
    for (const s of this.#above) if (s <= lastSeq) this.#above.delete(s);
    for (const s of [...this.#missing.keys()]) if (s <= lastSeq) this.#missing.delete(s);
    while (this.#above.delete(this.contiguous + 1)) this.contiguous += 1;
  }
}
