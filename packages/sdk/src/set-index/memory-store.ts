import type { IndexRead, RebuildSession, Scored, SetChange, SetIndexStore } from './set-index-store.ts';

/** member -> score, per key. */
type Sets = Map<string, Map<string, number>>;

const ordered = (set: Map<string, number> | undefined): string[] =>
  set ? [...set].sort(([a, sa], [b, sb]) => sa - sb || (a < b ? -1 : a > b ? 1 : 0)).map(([member]) => member) : [];

function applyTo(sets: Sets, change: SetChange, dirty?: Set<string>): void {
  if (change.kind === 'add') {
    let set = sets.get(change.key);
    if (!set) sets.set(change.key, (set = new Map()));
    for (const [member, score] of change.members) set.set(member, score);
  } else if (change.kind === 'remove') {
    const set = sets.get(change.key);
    for (const member of change.members) set?.delete(member);
    if (set?.size === 0) sets.delete(change.key);
  } else {
    const set = sets.get(change.key);
    sets.delete(change.key);
    const link = change.backlink;
    if (!set || !link) return;
    for (const m of set.keys()) {
      applyTo(sets, { kind: 'remove', key: link.prefix + m, members: [link.member] });
      dirty?.add(link.prefix + m);
    }
  }
}

/**
 * The index in process memory (a single instance: the only writer is this
 * process). Every call is synchronous inside, so each one is atomic.
 */
export class MemorySetIndexStore implements SetIndexStore {
  #ready: Sets | undefined;
  #building: { generation: number; sets: Sets; dirty: Set<string> } | undefined;
  #generation = 0;

  async apply(changes: readonly SetChange[], dirty: readonly string[]): Promise<void> {
    const building = this.#building;
    for (const change of changes) if (this.#ready) applyTo(this.#ready, change, building?.dirty);
    for (const key of dirty) building?.dirty.add(key);
  }

  async read(keys: readonly string[], sizeKeys: readonly string[] = []): Promise<IndexRead | undefined> {
    const sets = this.#ready;
    if (!sets) return undefined;
    return { members: keys.map((k) => ordered(sets.get(k))), sizes: sizeKeys.map((k) => sets.get(k)?.size ?? 0) };
  }

  async isReady(): Promise<boolean> {
    return this.#ready !== undefined;
  }

  async beginRebuild(): Promise<RebuildSession | undefined> {
    if (this.#building) return undefined;
    this.#generation += 1;
    const building = { generation: this.#generation, sets: new Map() as Sets, dirty: new Set<string>() };
    this.#building = building;
    const current = () => this.#building === building;
    return {
      generation: building.generation,
      load: async (entries) => {
        for (const [key, member, score] of entries)
          applyTo(building.sets, { kind: 'add', key, members: [[member, score]] });
      },
      replace: async (keys, found: ReadonlyMap<string, readonly Scored[]>) => {
        for (const key of keys) {
          const members = found.get(key) ?? [];
          if (members.length) building.sets.set(key, new Map(members));
          else building.sets.delete(key);
        }
      },
      takeDirty: async (max) => {
        const out = [...building.dirty].slice(0, max);
        for (const key of out) building.dirty.delete(key);
        return out;
      },
      finish: async () => {
        if (!current()) return 'lost';
        if (building.dirty.size > 0) return 'dirty';
        this.#ready = building.sets;
        this.#building = undefined;
        return 'done';
      },
      abandon: async () => {
        if (current()) this.#building = undefined;
      },
    };
  }

  close(): void {}
}
