// The dataset generator's randomness: a small seeded PRNG (mulberry32), so
// the same seed always gives the same dataset, with the few draws it needs.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max] (both included). */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Standard normal (Box-Muller). */
  normal(): number;
  /** k distinct items of `items` (k capped at its length), in draw order. */
  sample<T>(items: readonly T[], k: number): T[];
  /** Shuffles in place (Fisher-Yates) and returns the array. */
  shuffle<T>(items: T[]): T[];
  /** Hex digits (`n` of them), for hashes and keys that only need to look the part. */
  hex(n: number): string;
}

/** mulberry32: 32 bits of state, fast, good enough for test data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string: turns (seed, stream name) into a 32-bit seed. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * One independent stream per concern (`stream` names it), so that, say,
 * asking for more messages does not change who is in which group.
 */
export function rng(seed: number, stream: string): Rng {
  const next = mulberry32(hash32(`${seed >>> 0}:${stream}`));
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    normal: () => {
      const u = 1 - next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    },
    sample(items, k) {
      const n = Math.min(k, items.length);
      if (n * 3 > items.length) return this.shuffle([...items]).slice(0, n);
      // Sparse draw: rejection over indexes, cheap when k is small against the list.
      const chosen = new Set<number>();
      const out: (typeof items)[number][] = [];
      while (out.length < n) {
        const i = Math.floor(next() * items.length);
        if (chosen.has(i)) continue;
        chosen.add(i);
        out.push(items[i]!);
      }
      return out;
    },
    shuffle(items) {
      for (let i = items.length - 1; i > 0; i -= 1) {
        const j = Math.floor(next() * (i + 1));
        [items[i], items[j]] = [items[j]!, items[i]!];
      }
      return items;
    },
    hex(n) {
      let out = '';
      while (out.length < n)
        out += Math.floor(next() * 0x100000000)
          .toString(16)
          .padStart(8, '0');
      return out.slice(0, n);
    },
  };
}

/** Draws an index with probability proportional to its weight (cumulative sums, binary search). */
export function weightedSampler(weights: readonly number[], random: () => number): () => number {
  const cumulative = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((w, i) => {
    total += w;
    cumulative[i] = total;
  });
  if (!(total > 0)) throw new Error('weightedSampler: no positive weight');
  return () => {
    const target = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}
