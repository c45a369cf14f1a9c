/** A member and its place: members of a set are listed by score, then by name. */
export type Scored = readonly [member: string, score: number];

/** One change to the index, applied after the system of record was written. */
export type SetChange =
  | { kind: 'add'; key: string; members: readonly Scored[] }
  | { kind: 'remove'; key: string; members: readonly string[] }
  /**
   * Deletes the set `key`; with `backlink`, also removes `backlink.member`
   * from the set `backlink.prefix + m` of each member m it held (a group's
   * members lose the group).
   */
  | { kind: 'drop'; key: string; backlink?: { prefix: string; member: string } };

export interface IndexRead {
  /** Per key asked, its members in order. */
  members: string[][];
  /** Per size key asked, how many members it has. */
  sizes: number[];
}

/**
 * Named sets of short strings, rebuilt from the system of record in
 * generations: readers and writers use the ready generation, while a rebuild
 * fills the next one out of sight. A write made during a rebuild also marks
 * its keys dirty in the generation being built; the rebuild reads those keys
 * again before it may become the ready one (see rebuild.ts).
 */
export interface SetIndexStore {
  /** Applies the changes at once to the ready generation, and marks `dirty` in the one being built, if any. */
  apply(changes: readonly SetChange[], dirty: readonly string[]): Promise<void>;
  /** The members of `keys` and the sizes of `sizeKeys`, from the ready generation; undefined when none is. */
  read(keys: readonly string[], sizeKeys?: readonly string[]): Promise<IndexRead | undefined>;
  /** Whether a generation is ready. */
  isReady(): Promise<boolean>;
  /** Starts building a new generation, unless another rebuild holds the lock (undefined then). */
  beginRebuild(): Promise<RebuildSession | undefined>;
  close(): void;
}

/** One rebuild's hold on the generation it fills. */
export interface RebuildSession {
  readonly generation: number;
  /** Adds scanned entries `[key, member, score]`. */
  load(entries: ReadonlyArray<readonly [string, string, number]>): Promise<void>;
  /** Sets keys to exactly what the system of record holds now (keys missing from `sets` become empty). */
  replace(keys: readonly string[], sets: ReadonlyMap<string, readonly Scored[]>): Promise<void>;
  /** Takes up to `max` keys written to since they were last read. */
  takeDirty(max: number): Promise<string[]>;
  /**
   * Makes this generation the ready one if no key is dirty: 'done'; 'dirty'
   * when some are (read them again first); 'lost' when another rebuild took
   * over (this one's lock expired).
   */
  finish(): Promise<'done' | 'dirty' | 'lost'>;
  /** Gives up: the generation is never made ready and its keys go. */
  abandon(): Promise<void>;
}
