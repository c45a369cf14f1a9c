import type { Message, Reaction } from '@im/protocol';

/** A message typed here and not yet confirmed by the server. */
export interface PendingMessage {
  clientMsgId: string;
  converseId: string;
  content: string;
  replyTo?: string;
  attachments: string[];
  /** queued: waiting for the connection (kept across a reload, sent when it returns; see offline/). */
  status: 'sending' | 'queued' | 'failed';
  error?: string;
  createdAt: string;
}

/** What the client holds of one converse's history: a contiguous run of seqs up to the newest. */
export interface ConverseMessages {
  items: Message[];
  pending: PendingMessage[];
  /** The newest page was loaded: `items` ends at the converse's last message as far as we know. */
  loaded: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  /**
   * `items` is a window opened around an older message (a search result, the
   * first unread): newer messages exist past its end. Live messages wait for
   * the window to reach the newest again (see history-window.ts).
   */
  hasNewer?: boolean;
}

export const emptyConverse = (): ConverseMessages => ({
  items: [],
  pending: [],
  loaded: false,
  hasOlder: true,
  loadingOlder: false,
});

/** Which of two copies of one message is the more recent state. */
function newer(a: Message, b: Message): Message {
  if (a.deleted) return a;
  if (b.deleted) return b;
  if ((a.editedAt ?? '') > (b.editedAt ?? '')) return a;
  return b;
}

/**
 * Merges messages into a seq-ordered list, keeping one copy per id. A message
 * can arrive live, in a sync answer and in a history page: all three are one.
 */
export function mergeMessages(items: readonly Message[], incoming: readonly Message[]): Message[] {
  if (incoming.length === 0) return items as Message[];
  const last = items.at(-1);
  const sortedIncoming = [...incoming].sort((a, b) => a.seq - b.seq);
  // Common case: live messages newer than everything held.
  if (!last || sortedIncoming[0]!.seq > last.seq) return dedupeSorted([...items, ...sortedIncoming]);
  const bySeq = new Map<number, Message>();
  for (const m of items) bySeq.set(m.seq, m);
  for (const m of sortedIncoming) {
    const held = bySeq.get(m.seq);
    bySeq.set(m.seq, held && held.id === m.id ? newer(held, m) : m);
  }
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

function dedupeSorted(list: Message[]): Message[] {
  const out: Message[] = [];
  for (const m of list) {
    const prev = out.at(-1);
    if (prev && prev.seq === m.seq) out[out.length - 1] = prev.id === m.id ? newer(prev, m) : m;
    else out.push(m);
  }
  return out;
}

/** Replaces one message (by id) with a function of itself; unchanged list when absent. */
export function updateMessage(items: Message[], id: string, update: (m: Message) => Message): Message[] {
  const index = items.findIndex((m) => m.id === id);
  if (index < 0) return items;
  const next = items.slice();
  next[index] = update(items[index]!);
  return next;
}

/** Applies a `reaction:updated` event: the counts are the server's, `me` moves only for our own reaction. */
export function applyReactionCounts(
  reactions: Reaction[],
  counts: Array<{ emoji: string; count: number }>,
  change: { emoji: string; byMe: boolean; added: boolean },
): Reaction[] {
  const mine = new Set(reactions.filter((r) => r.me).map((r) => r.emoji));
  if (change.byMe) {
    if (change.added) mine.add(change.emoji);
    else mine.delete(change.emoji);
  }
  return counts.filter((c) => c.count > 0).map((c) => ({ emoji: c.emoji, count: c.count, me: mine.has(c.emoji) }));
}

/** Removes pending copies of messages the server has confirmed. */
export function dropConfirmed(pending: PendingMessage[], confirmed: readonly Message[]): PendingMessage[] {
  if (pending.length === 0) return pending;
  const ids = new Set(confirmed.map((m) => m.clientMsgId).filter((id): id is string => id !== undefined));
  if (ids.size === 0) return pending;
  const rest = pending.filter((p) => !ids.has(p.clientMsgId));
  return rest.length === pending.length ? pending : rest;
}

let counter = 0;
/** An id that makes a send idempotent: a retry of it stores one message. */
export function newClientMsgId(): string {
  counter += 1;
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `c:${Date.now().toString(36)}:${random[0]!.toString(36)}${random[1]!.toString(36)}:${counter}`;
}
