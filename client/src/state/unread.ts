import type { Group, Message, UnreadEntry } from '@im/protocol';
import { mentionsMe } from './mentions-me.ts';

const blank = (converseId: string, seq: number): UnreadEntry => ({
  converseId,
  lastSeq: seq - 1,
  readSeq: seq - 1,
  unread: 0,
  mentions: 0,
});

/** Counts a new message once (a repeat delivery of a seq already counted changes nothing). */
export function countMessage(
  entry: UnreadEntry | undefined,
  message: Message,
  meId: string,
  reading: boolean,
): UnreadEntry {
  const base = entry ?? blank(message.converseId, message.seq);
  if (message.seq <= base.lastSeq) return base;
  if (message.authorId === meId || reading) {
    return { ...base, lastSeq: message.seq, readSeq: message.seq, unread: 0, mentions: 0 };
  }
  const mentioned = mentionsMe(message, meId);
  return {
    ...base,
    lastSeq: message.seq,
    unread: message.seq - base.readSeq,
    mentions: base.mentions + (mentioned ? 1 : 0),
  };
}

/** Moves the read position forward (never back). */
export function markReadUpTo(entry: UnreadEntry | undefined, converseId: string, seq: number): UnreadEntry {
  const base = entry ?? { converseId, lastSeq: seq, readSeq: 0, unread: 0, mentions: 0 };
  const readSeq = Math.max(base.readSeq, seq);
  const lastSeq = Math.max(base.lastSeq, readSeq);
  return { ...base, lastSeq, readSeq, unread: lastSeq - readSeq, mentions: readSeq >= lastSeq ? 0 : base.mentions };
}

/** Takes the server's counts, unless we already counted messages newer than its answer. */
export function mergeServerUnread(
  local: Record<string, UnreadEntry>,
  server: UnreadEntry[],
): Record<string, UnreadEntry> {
  const next: Record<string, UnreadEntry> = {};
  for (const entry of server) {
    const held = local[entry.converseId];
    next[entry.converseId] = held && held.lastSeq > entry.lastSeq ? held : entry;
  }
  return next;
}

export interface Badge {
  unread: number;
  mentions: number;
}

/** A DM's badge: every unread message in it is addressed to me, so it counts as a mention. */
export function dmBadge(entry: UnreadEntry | undefined): Badge {
  const unread = entry?.unread ?? 0;
  return { unread, mentions: unread };
}

/** A group's badge: its panels' counts, but only the mentions of panels I muted. */
export function groupBadge(
  group: Group,
  unread: Record<string, UnreadEntry>,
  muted: (converseId: string) => boolean = () => false,
): Badge {
  let total = 0;
  let mentions = 0;
  for (const panel of group.panels) {
    const entry = unread[panel.converseId];
    if (!entry) continue;
    if (!muted(panel.converseId)) total += entry.unread;
    mentions += entry.mentions;
  }
  return { unread: total, mentions };
}
