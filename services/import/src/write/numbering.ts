import type { ImportSource } from '../source/types.ts';
import { mentionedKeys } from '../source/mention-token.ts';
import { Growable } from './growable.ts';
import { keyHash32 } from './ids.ts';
import { skipReason } from './message-filter.ts';

/**
 * The first pass over an export's messages: it reads only where and when
 * each one was written, and gives every message its number in its channel
 * in time order (ties in the export's order), whatever order the export
 * holds them in (Discord keeps a thread's replies in a file of its own,
 * Mattermost interleaves channels). About 20 bytes per message: a million
 * messages take some 20 MB.
 *
 * It also learns what the second pass needs to know ahead: which messages
 * exist (a reply whose root is not in the export becomes a plain message),
 * who writes or is mentioned without being listed, and how many messages
 * each channel has.
 */
export interface Numbering {
  /** The seq of the message at this position in `messages()` order (0: not written). */
  seqAt(ordinal: number): number;
  /** Messages per channel key (those written). */
  counts: Map<string, number>;
  /** The newest message's time per channel key. */
  newest: Map<string, number>;
  /**
   * The time of the export's message with this key, or undefined when it
   * holds none (found by a 32-bit hash of the key: a false match is about one
   * in four billion per message).
   */
  timeOf(key: string): number | undefined;
  /** Authors and mentioned people the export does not list among its users. */
  unknownPeople: Set<string>;
  /** Per channel: the people who wrote in it. */
  authorsByChannel: Map<string, Set<string>>;
  /** Messages that will be written. */
  total: number;
}

export async function numberMessages(
  source: ImportSource,
  knownPeople: ReadonlySet<string>,
  channelKeys: ReadonlySet<string>,
): Promise<Numbering> {
  const channelIndex = new Map<string, number>();
  const channels: string[] = [];
  const channelOf = new Growable((n) => new Uint32Array(n));
  const timeOf = new Growable((n) => new Float64Array(n));
  const hashes = new Growable((n) => new Uint32Array(n));
  const unknownPeople = new Set<string>();
  const authorsByChannel = new Map<string, Set<string>>();
  const newest = new Map<string, number>();
  const SKIP = 0xffffffff;

  for await (const m of source.messages()) {
    if (skipReason(m, channelKeys)) {
      channelOf.push(SKIP);
      timeOf.push(0);
      hashes.push(0);
      continue;
    }
    let index = channelIndex.get(m.channelKey);
    if (index === undefined) {
      index = channels.length;
      channels.push(m.channelKey);
      channelIndex.set(m.channelKey, index);
      authorsByChannel.set(m.channelKey, new Set());
    }
    const at = m.createdAt.getTime();
    channelOf.push(index);
    timeOf.push(at);
    hashes.push(keyHash32(m.key));
    if (at > (newest.get(m.channelKey) ?? -Infinity)) newest.set(m.channelKey, at);
    authorsByChannel.get(m.channelKey)!.add(m.authorKey);
    if (!knownPeople.has(m.authorKey)) unknownPeople.add(m.authorKey);
    for (const key of mentionedKeys(m.text)) if (!knownPeople.has(key)) unknownPeople.add(key);
    for (const r of m.reactions) for (const key of r.userKeys) if (!knownPeople.has(key)) unknownPeople.add(key);
  }

  // Positions of the written messages, sorted by (channel, time, position).
  const all = channelOf.view();
  const times = timeOf.view();
  let written = 0;
  for (let i = 0; i < all.length; i++) if (all[i] !== SKIP) written++;
  const order = new Uint32Array(written);
  for (let i = 0, j = 0; i < all.length; i++) if (all[i] !== SKIP) order[j++] = i;
  order.sort((a, b) => all[a]! - all[b]! || times[a]! - times[b]! || a - b);
  const seqs = new Uint32Array(all.length);
  const counts = new Map<string, number>();
  let previous = -1;
  let seq = 0;
  for (const position of order) {
    const channel = all[position]!;
    seq = channel === previous ? seq + 1 : 1;
    previous = channel;
    seqs[position] = seq;
    counts.set(channels[channel]!, seq);
  }
  // Written messages' key hashes, sorted, with their times in the same order.
  const byHash = new Uint32Array(written);
  for (let i = 0, j = 0; i < all.length; i++) if (all[i] !== SKIP) byHash[j++] = i;
  const hashOf = hashes.view();
  byHash.sort((a, b) => hashOf[a]! - hashOf[b]!);
  const sortedHashes = new Uint32Array(written);
  const sortedTimes = new Float64Array(written);
  byHash.forEach((position, k) => {
    sortedHashes[k] = hashOf[position]!;
    sortedTimes[k] = times[position]!;
  });

  return {
    seqAt: (ordinal) => seqs[ordinal] ?? 0,
    counts,
    newest,
    timeOf: (key) => {
      const h = keyHash32(key);
      let lo = 0;
      let hi = sortedHashes.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const v = sortedHashes[mid]!;
        if (v === h) return sortedTimes[mid];
        if (v < h) lo = mid + 1;
        else hi = mid - 1;
      }
      return undefined;
    },
    unknownPeople,
    authorsByChannel,
    total: written,
  };
}
