import { LRUCache } from 'lru-cache';
import type { PreparedResponse } from './prepared-response.ts';

/** A rendered answer, or `null`: the converse is not readable there (a 404, cached like the rest). */
export type Rendered = PreparedResponse | null;

/** The rendered variants (pages, feeds, JSON pages) of one converse, valid until it changes. */
class ConverseRenders {
  readonly done = new Map<string, Rendered>();
  readonly pending = new Map<string, Promise<Rendered>>();
}

/** Variants kept per converse (older pages asked for with many different `before`s). */
const MAX_VARIANTS = 64;

/**
 * Pages and feeds as they were rendered, per converse, dropped as a whole
 * when the converse changes (a message, an edit, a deletion, its panel or
 * group made private). Concurrent misses of one variant share one render.
 * A render that started before a change is answered to those who asked but
 * never kept, so nothing stale outlives the change that made it stale.
 */
export class PublicCache {
  readonly #converses: LRUCache<string, ConverseRenders>;

  /**
   * `onDrop`: a converse's renders went (changed, or least recently used);
   * with routing by room the gateway may stop hearing that converse.
   */
  constructor(maxConverses = 2000, onDrop?: (converseId: string) => void) {
    this.#converses = new LRUCache({
      max: maxConverses,
      ...(onDrop ? { dispose: (_renders: ConverseRenders, converseId: string) => onDrop(converseId) } : {}),
    });
  }

  /** Whether anything of the converse is kept or being rendered. */
  has(converseId: string): boolean {
    return this.#converses.has(converseId);
  }

  /** The kept render, if any: the hot path, with no promise. */
  peek(converseId: string, variant: string): Rendered | undefined {
    return this.#converses.get(converseId)?.done.get(variant);
  }

  /** The kept render, or one render shared by everyone asking until it is done. */
  get(converseId: string, variant: string, render: () => Promise<Rendered>): Rendered | Promise<Rendered> {
    let renders = this.#converses.get(converseId);
    if (!renders) {
      renders = new ConverseRenders();
      this.#converses.set(converseId, renders);
    }
    const done = renders.done.get(variant);
    if (done !== undefined) return done;
    const pending = renders.pending.get(variant);
    if (pending) return pending;
    const own = renders;
    const started = render().then(
      (rendered) => {
        own.pending.delete(variant);
        // Still the converse's current set: nothing changed while rendering.
        if (this.#converses.peek(converseId) === own) {
          if (own.done.size >= MAX_VARIANTS) own.done.delete(own.done.keys().next().value!);
          own.done.set(variant, rendered);
        }
        return rendered;
      },
      (err: unknown) => {
        own.pending.delete(variant);
        throw err;
      },
    );
    renders.pending.set(variant, started);
    return started;
  }

  /** The converses changed: their renders go, and renders under way will not be kept. */
  forget(converseIds: Iterable<string>): void {
    for (const id of converseIds) this.#converses.delete(id);
  }

  /** Everything goes (a user's display name, shown on many pages, changed). */
  clear(): void {
    this.#converses.clear();
  }

  get size(): number {
    return this.#converses.size;
  }
}
