// Where the dataset's messages go and who writes them, and how far each
// member has read: decided for every message before any is written, so read
// positions (and the notification inbox, which follows them) are known when
// the messages are made.
import type { CommunityPlan } from './seed-plan.ts';
import { rng, weightedSampler } from './seed-prng.ts';

/** A converse of the dataset: a group panel or a DM. */
export interface ConverseSlot {
  kind: 'panel' | 'dm';
  /** Group index (panels) or DM index (DMs). */
  owner: number;
  /** Panel index within its group (panels only). */
  panel: number;
  members: readonly number[];
}

export interface Traffic {
  converses: ConverseSlot[];
  /** Per message (in time order): its converse index and author (user index). */
  converseOf: Int32Array;
  authorOf: Int32Array;
  /** Per converse: how many messages it gets, so its last seq. */
  lastSeq: Int32Array;
  /** Read position of (converse, user), only for those that have one. */
  readSeq: Map<number, number>;
  /** Key of readSeq. */
  key(converse: number, user: number): number;
}

/** Share of the messages that go to DMs (when there are any). */
const DM_SHARE = 0.15;
const PANEL_FACTOR = [1, 0.35, 0.15];

/**
 * Skewed traffic: a group's weight grows with its size (size^0.7) times a
 * log-normal factor, its first panel gets most of it; DMs share 15% with a
 * wider log-normal spread. So a few converses (the big groups' `general`)
 * carry most messages and many see a handful. Within a group the first
 * members (owner, admins) write more (index ~ size * u^2).
 */
export function planTraffic(plan: CommunityPlan, messages: number, seed: number): Traffic {
  const r = rng(seed, 'traffic');
  const converses: ConverseSlot[] = [];
  const weights: number[] = [];
  const panelWeights: number[] = [];
  plan.groups.forEach((g, gi) => {
    const groupWeight = g.members.length ** 0.7 * Math.exp(0.8 * r.normal());
    g.panels.forEach((_, pi) => {
      converses.push({ kind: 'panel', owner: gi, panel: pi, members: g.members });
      panelWeights.push(groupWeight * PANEL_FACTOR[pi]!);
    });
  });
  const dmWeights = plan.dms.map(() => Math.exp(1.2 * r.normal()));
  plan.dms.forEach((pair, di) => converses.push({ kind: 'dm', owner: di, panel: 0, members: pair }));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const panelTotal = sum(panelWeights);
  const dmTotal = sum(dmWeights);
  const dmShare = dmWeights.length > 0 ? DM_SHARE : 0;
  for (const w of panelWeights) weights.push(((1 - dmShare) * w) / panelTotal);
  for (const w of dmWeights) weights.push((dmShare * w) / dmTotal);

  const pick = weightedSampler(weights, r.next);
  const converseOf = new Int32Array(messages);
  const authorOf = new Int32Array(messages);
  const lastSeq = new Int32Array(converses.length);
  const users = plan.users;
  const key = (converse: number, user: number) => converse * users + user;
  /** The highest seq each author wrote in each converse: the writer moves their read position there. */
  const authored = new Map<number, number>();
  for (let k = 0; k < messages; k += 1) {
    const c = pick();
    const slot = converses[c]!;
    const author =
      slot.kind === 'dm' ? slot.members[r.int(0, 1)]! : slot.members[Math.floor(slot.members.length * r.next() ** 2)]!;
    converseOf[k] = c;
    authorOf[k] = author;
    lastSeq[c] = lastSeq[c]! + 1;
    authored.set(key(c, author), lastSeq[c]!);
  }

  // Read positions: about 10% of members never opened the converse, 45% are
  // at the end, the rest some way behind (mostly a little, up to 300); an
  // author is never behind their own last message.
  const readSeq = new Map<number, number>();
  converses.forEach((slot, c) => {
    const last = lastSeq[c]!;
    if (last === 0) return;
    for (const m of slot.members) {
      const u = r.next();
      const behind = 1 + Math.floor(r.next() ** 2 * Math.min(last, 300));
      const base = u < 0.1 ? 0 : u < 0.55 ? last : Math.max(0, last - behind);
      const seq = Math.max(base, authored.get(key(c, m)) ?? 0);
      if (seq > 0) readSeq.set(key(c, m), seq);
    }
  });
  return { converses, converseOf, authorOf, lastSeq, readSeq, key };
}
