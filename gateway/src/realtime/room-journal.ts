/**
 * What this node's fan-out did to rooms while some socket's rooms were still
 * loading: packets emitted to rooms, and sockets moved into or out of rooms.
 * A socket is connected (its user and session rooms joined) before its group
 * and converse rooms are known; once they are, it replays what it would have
 * had, in order, so a connect under load misses nothing and gets nothing twice.
 *
 * Entries hold references to payloads the fan-out already built, and are kept
 * only while a load is in progress: outside a connect storm it is empty.
 */
export type JournalEntry =
  | { kind: 'emit'; to: readonly string[]; except?: string; event: string; payload: unknown }
  | { kind: 'join' | 'leave'; of: readonly string[]; rooms: readonly string[] };

/** The view of one socket the replay needs (a socket.io socket has all of it). */
export interface ReplayTarget {
  readonly rooms: ReadonlySet<string>;
  join(rooms: string[]): unknown;
  leave(room: string): unknown;
  emit(event: string, payload: unknown): unknown;
}

/** How far a loading socket has read: taken at connect, given back by `replay` or `release`. */
export type JournalMark = number;

const anyIn = (rooms: readonly string[], set: ReadonlySet<string>) => rooms.some((r) => set.has(r));

export class RoomJournal {
  #entries: JournalEntry[] = [];
  /** The position of #entries[0] since the node started. */
  #start = 0;
  /** Marks still held, by position: the oldest decides what may be dropped. */
  readonly #held = new Map<number, number>();
  readonly #maxEntries: number;
  #dropped = 0;

  constructor(maxEntries = 100_000) {
    this.#maxEntries = maxEntries;
  }

  /** Entries kept now (for metrics and tests). */
  get size(): number {
    return this.#entries.length;
  }

  /** Entries dropped because the journal was full while loads were slow (their sockets rely on `sync`). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Whether anything is kept now: callers skip building entries otherwise (the fan-out's usual case). */
  get recording(): boolean {
    return this.#held.size > 0;
  }

  /** A socket starts loading its rooms: what the fan-out does from now on is kept for it. */
  mark(): JournalMark {
    const at = this.#start + this.#entries.length;
    this.#held.set(at, (this.#held.get(at) ?? 0) + 1);
    return at;
  }

  record(entry: JournalEntry): void {
    if (this.#held.size === 0) return;
    this.#entries.push(entry);
    if (this.#entries.length > this.#maxEntries) {
      // A storm far slower than the journal is long: the oldest go, and the
      // sockets that needed them catch up with `sync` as after any reconnect.
      const drop = this.#entries.length - this.#maxEntries;
      this.#entries.splice(0, drop);
      this.#start += drop;
      this.#dropped += drop;
    }
  }

  /**
   * Plays back to one socket, now in its loaded rooms, what happened since
   * `mark`: moves into and out of rooms are applied in order, and a packet is
   * sent when the socket is in one of its rooms now but was in none of them
   * when it went out (rooms it had then: `roomsAtMark`, plus the moves since).
   * Answers how many packets it sent.
   */
  replay(mark: JournalMark, socket: ReplayTarget, roomsAtMark: Iterable<string>): number {
    const had = new Set(roomsAtMark);
    let sent = 0;
    for (let i = Math.max(mark - this.#start, 0); i < this.#entries.length; i += 1) {
      const entry = this.#entries[i]!;
      if (entry.kind === 'emit') {
        if (
          anyIn(entry.to, socket.rooms) &&
          !anyIn(entry.to, had) &&
          !(entry.except !== undefined && socket.rooms.has(entry.except))
        ) {
          socket.emit(entry.event, entry.payload);
          sent += 1;
        }
      } else {
        // Whether the live move reached this socket then (it did if it was in `of`).
        const live = anyIn(entry.of, had);
        if (!live && !anyIn(entry.of, socket.rooms)) continue;
        // The loaded rooms may predate this move (or not): applying it again is harmless.
        for (const r of entry.rooms) {
          if (entry.kind === 'join') {
            if (live) had.add(r);
          } else {
            socket.leave(r);
            if (live) had.delete(r);
          }
        }
        if (entry.kind === 'join') socket.join([...entry.rooms]);
      }
    }
    this.release(mark);
    return sent;
  }

  /** The socket no longer needs its mark (it closed while loading, or has replayed). */
  release(mark: JournalMark): void {
    const count = this.#held.get(mark) ?? 0;
    if (count > 1) this.#held.set(mark, count - 1);
    else this.#held.delete(mark);
    if (this.#held.size === 0) {
      this.#start += this.#entries.length;
      this.#entries = [];
      return;
    }
    // Marks are taken in order, so the first key left is the oldest one held.
    const oldest = this.#held.keys().next().value!;
    const drop = oldest - this.#start;
    if (drop > 1024 && drop * 2 > this.#entries.length) {
      this.#entries.splice(0, drop);
      this.#start = oldest;
    }
  }
}
