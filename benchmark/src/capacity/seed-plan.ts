// Who is in which group and who has a DM with whom: the dataset's community,
// decided from the seed before anything is written.
import { rng } from './seed-prng.ts';

export interface PlannedGroup {
  name: string;
  /** User indexes. [0] is the owner, the next `admins` are admins, the rest members. */
  members: number[];
  admins: number;
  /** Panel names, in panel order (the first is `general`, as the group service names it). */
  panels: string[];
}

export interface CommunityPlan {
  users: number;
  /** Largest first. */
  groups: PlannedGroup[];
  /** DMs by their two members' indexes, the smaller first. */
  dms: Array<[number, number]>;
}

const PANEL_NAMES = ['general', 'random', 'off-topic'];
const SMALL_MIN = 5;
const SMALL_MAX = 50;

/**
 * A few big groups (half the users, then smaller fractions: thousands of
 * members at 10k users), many small ones of 5-50 (most near 5), every user
 * in at least one group (those left out join the biggest, like a lobby),
 * 1-3 text panels each (3 in the big ones), and users/2 DMs between random pairs.
 */
export function planCommunity(users: number, groups: number, seed: number): CommunityPlan {
  const r = rng(seed, 'community');
  const everyone = Array.from({ length: users }, (_, i) => i);
  const bigCount = groups === 1 ? 1 : Math.max(1, Math.round(groups * 0.02));
  const drafts: Array<{ members: number[]; big: boolean }> = [];
  for (let g = 0; g < groups; g += 1) {
    const big = g < bigCount;
    const size = big
      ? Math.max(Math.min(users, SMALL_MIN), Math.round((users * 0.5) / (g + 1) ** 0.8))
      : Math.min(users, SMALL_MIN + Math.floor((SMALL_MAX - SMALL_MIN + 1) * r.next() ** 2));
    drafts.push({ members: r.sample(everyone, size), big });
  }
  const inSome = new Uint8Array(users);
  for (const d of drafts) for (const m of d.members) inSome[m] = 1;
  for (let u = 0; u < users; u += 1) if (!inSome[u]) drafts[0]!.members.push(u);

  // Largest first; equal sizes keep their draw order.
  const ordered = drafts.map((d, i) => ({ ...d, i })).sort((a, b) => b.members.length - a.members.length || a.i - b.i);
  const planned = ordered.map((d, g): PlannedGroup => {
    const size = d.members.length;
    const admins = size >= 100 ? Math.ceil(size / 500) : size >= 10 ? 1 : 0;
    const panelCount = d.big ? 3 : r.int(1, 3);
    return {
      name: `${d.big ? 'Big group' : 'Team'} ${g + 1}`,
      members: d.members,
      admins,
      panels: PANEL_NAMES.slice(0, panelCount),
    };
  });

  const dmTarget = Math.min(Math.floor(users / 2), (users * (users - 1)) / 2);
  const dms: Array<[number, number]> = [];
  const seen = new Set<number>();
  for (let attempts = 0; dms.length < dmTarget && attempts < dmTarget * 50; attempts += 1) {
    const a = r.int(0, users - 1);
    const b = r.int(0, users - 1);
    if (a === b) continue;
    const pair: [number, number] = a < b ? [a, b] : [b, a];
    const key = pair[0] * users + pair[1];
    if (seen.has(key)) continue;
    seen.add(key);
    dms.push(pair);
  }
  return { users, groups: planned, dms };
}
