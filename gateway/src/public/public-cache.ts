import { LRUCache } from 'lru-cache';
import type { PreparedResponse } from './prepared-response.ts';

/** A rendered answer, or `null`: the converse is not readable there (a 404, cached like the rest). */
export type Rendered = PreparedResponse | null;

/** What a render made, with what the cache must know to keep it current. */
export interface Render {
  rendered: Rendered;
  /** Users whose profiles it shows (authors' names): a change of theirs makes it stale. */
  shows?: readonly string[];
  /** Seq of the converse's newest message, when the render learnt it (0: none). */
  newestSeq?: number;
}

/** The rendered variants (pages, feeds, JSON pages) of one converse, valid until it changes. */
class ConverseRenders {
  readonly done = new Map<string, Rendered>();
  readonly pending = new Map<string, Promise<Rendered>>();
  /** Users whose profiles the kept renders show. */
  readonly shows = new Set<string>();
  newestSeq: number | undefined;
  /** Bytes of the kept bodies (every encoding). */
  bytes = 0;
}

const bytesOf = (rendered: Rendered) =>
  rendered ? Object.values(rendered.bodies).reduce((sum, body) => sum + body.length, 0) : 0;

/** Bytes of rendered bodies kept in all, by default; the least recently used converses go first past it. */
export const PUBLIC_CACHE_BYTES = 64 * 2 ** 20;

/** Variants kept per converse (older pages asked for with many different `before`s). */
const MAX_VARIANTS = 64;

/**
 * Pages and feeds as they were rendered, per converse, dropped as a whole
 * when the converse changes (a message, an edit, a deletion, its panel or
 * group made private) or a user it shows changes their profile. Concurrent misses of one variant share one render.
 * A render that started before a change is answered to those who asked but
 * never kept, so nothing stale outlives the change that made it stale.
 */
export class PublicCache {
  readonly #converses: LRUCache<string, ConverseRenders>;
  readonly #maxBytes: number;
  #bytes = 0;

  /**
   * `onDrop`: a converse's renders went (changed, or least recently used);
   * with routing by room the gateway may stop hearing that converse.
   */
  constructor(maxConverses = 2000, onDrop?: (converseId: string) => void, maxBytes = PUBLIC_CACHE_BYTES) {
    this.#maxBytes = maxBytes;
    this.#converses = new LRUCache({
      max: maxConverses,
      dispose: (renders: ConverseRenders, converseId: string) => {
        this.#bytes -= renders.bytes;
        onDrop?.(converseId);
      },
    });
  }

  /** Bytes of rendered bodies kept now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Whether anything of the converse is kept or being rendered. */
  has(converseId: string): boolean {
    return this.#converses.has(converseId);
  }

  /** The kept render, if any: the hot path, with no promise. */
  peek(converseId: string, variant: string): Rendered | undefined {
    return this.#converses.get(converseId)?.done.get(variant);
  }

  /** Whether the variant is kept or being rendered: asking for it starts no render. */
  holds(converseId: string, variant: string): boolean {
    const renders = this.#converses.get(converseId);
    return renders !== undefined && (renders.done.has(variant) || renders.pending.has(variant));
  }

  /** Seq of the converse's newest message, when a render since its last change learnt it. */
  newestSeq(converseId: string): number | undefined {
    return this.#converses.get(converseId)?.newestSeq;
  }

  /** Finds the converse's newest seq with `read` and keeps it, unless the converse changed meanwhile. */
  async learnNewestSeq(converseId: string, read: () => Promise<number>): Promise<number> {
    const own = this.#current(converseId);
    const newest = await read();
    if (this.#converses.peek(converseId) === own) own.newestSeq = newest;
    return newest;
  }

  #current(converseId: string): ConverseRenders {
    let renders = this.#converses.get(converseId);
    if (!renders) {
      renders = new ConverseRenders();
      this.#converses.set(converseId, renders);
    }
    return renders;
  }

  /** The kept render, or one render shared by everyone asking until it is done. */
  get(converseId: string, variant: string, render: () => Promise<Render>): Rendered | Promise<Rendered> {
    const renders = this.#current(converseId);
    const done = renders.done.get(variant);
    if (done !== undefined) return done;
    const pending = renders.pending.get(variant);
    if (pending) return pending;
    const own = renders;
    const started = render().then(
      ({ rendered, shows = [], newestSeq }) => {
        own.pending.delete(variant);
        // Still the converse's current set: nothing changed while rendering.
        if (this.#converses.peek(converseId) === own) {
          if (own.done.size >= MAX_VARIANTS) {
            const oldest = own.done.keys().next().value!;
            this.#count(own, -bytesOf(own.done.get(oldest)!));
            own.done.delete(oldest);
          }
          own.done.set(variant, rendered);
          this.#count(own, bytesOf(rendered));
          // Past the bytes: the least recently used converses go (never the one just rendered).
          while (this.#bytes > this.#maxBytes && this.#converses.size > 1) this.#converses.pop();
          for (const userId of shows) own.shows.add(userId);
          if (newestSeq !== undefined) own.newestSeq = newestSeq;
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

  #count(renders: ConverseRenders, bytes: number): void {
    renders.bytes += bytes;
    this.#bytes += bytes;
  }

  /** The converses changed: their renders go, and renders under way will not be kept. */
  forget(converseIds: Iterable<string>): void {
    for (const id of converseIds) this.#converses.delete(id);
  }

  /**
   * A user's profile changed: the converses whose renders show it go, and
   * those with a render under way (it may be reading the old profile).
   */
  forgetShowing(userId: string): void {
    const stale: string[] = [];
    for (const [converseId, renders] of this.#converses.entries())
      if (renders.shows.has(userId) || renders.pending.size > 0) stale.push(converseId);
    this.forget(stale);
  }

  get size(): number {
    return this.#converses.size;
  }
}
