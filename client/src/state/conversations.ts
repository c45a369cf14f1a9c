import type { Ack, CommandAccepted, Message, ServerToClientEvents, SlashCommand } from '@im/protocol';
import { keepMyVotes } from './poll-votes.ts';
import { describeError, sentenceFor } from '../api/errors.ts';
import {
  commandAccepted,
  commandSendFailed,
  dropCommandNote,
  isCommandAccepted,
  startCommandNote,
} from './command-sends.ts';
import { currentSocket } from './connection.ts';
import {
  applyReactionCounts,
  dropConfirmed,
  emptyConverse,
  mergeMessages,
  newClientMsgId,
  updateMessage,
  type ConverseMessages,
  type PendingMessage,
} from './messages.ts';
import { getState, notify, setState } from './store.ts';
import { patchThreadReply } from './thread-store.ts';
import { countMessage, markReadUpTo } from './unread.ts';
import { ensureUsers } from './users.ts';
import { accountMap, accountSet, forgetOnSignOut } from './account-state.ts';
import { api } from '../api/api.ts';
import { inOrder } from '../offline/send-order.ts';
import { t } from '../i18n/i18n.ts';

export const PAGE_SIZE = 50;
const SEND_TIMEOUT_MS = 15_000;

export function patchConverse(converseId: string, update: (c: ConverseMessages) => Partial<ConverseMessages>): void {
  setState((s) => {
    const held = s.converses[converseId] ?? emptyConverse();
    return { converses: { ...s.converses, [converseId]: { ...held, ...update(held) } } };
  });
}

/** Where the user is looking: the open converse, scrolled to its newest message, in a visible tab. */
const view = { converseId: null as string | null, atBottom: true };

export function setViewedConverse(converseId: string | null): void {
  if (view.converseId !== converseId) readHeld.clear();
  view.converseId = converseId;
  view.atBottom = true;
}

/** Converses marked unread while open: not read again by being shown until I open another one. */
const readHeld = accountSet<string>('converses held unread');

/** Marked unread: the converse is not read by being shown, and its next read goes to the server again. */
export function holdRead(converseId: string): void {
  readHeld.add(converseId);
  ackedSeq.delete(converseId);
  clearTimeout(ackTimers.get(converseId));
  ackTimers.delete(converseId);
}

/**
 * The list says whether its end is in view. Only the converse's own end
 * counts as reading: the end of a window that stops short of the newest (a
 * converse opened at its first unread) is often in view at once, above
 * messages nobody has seen yet.
 */
export function setAtBottom(converseId: string, atBottom: boolean): void {
  if (view.converseId !== converseId) return;
  view.atBottom = atBottom;
  readIfAtNewest(converseId);
}

/** Scrolled to the newest, in a visible tab: what is shown counts as read (also once a window reaches the newest). */
export function readIfAtNewest(converseId: string): void {
  if (isReading(converseId)) markConverseRead(converseId);
}

/** Back in a visible tab, scrolled to the bottom: what is shown counts as read. */
export function onVisibilityChange(): void {
  if (view.converseId) readIfAtNewest(view.converseId);
}

export function isReading(converseId: string): boolean {
  return (
    view.converseId === converseId &&
    !readHeld.has(converseId) &&
    view.atBottom &&
    !getState().converses[converseId]?.hasNewer &&
    typeof document !== 'undefined' &&
    document.visibilityState === 'visible'
  );
}

/** Takes messages from any source (live, sync, history, send acks) into the store, once each. */
export function receiveMessages(converseId: string, messages: Message[], opts: { count?: boolean } = {}): void {
  if (messages.length === 0) return;
  const meId = getState().me?.id ?? '';
  const reading = isReading(converseId);
  setState((s) => {
    const held = s.converses[converseId];
    const next = { ...s.converses };
    // Live messages of a converse never opened only move its counters: its newest page is loaded on
    // open. While that first page is on its way they are kept, since the page may predate them.
    if (held && (held.loaded || held.loadingOlder)) {
      next[converseId] = {
        ...held,
        items: mergeMessages(held.items, withinWindow(held, messages)),
        pending: dropConfirmed(held.pending, messages),
      };
    } else if (held) {
      next[converseId] = { ...held, pending: dropConfirmed(held.pending, messages) };
    }
    let unread = s.unread;
    if (opts.count !== false) {
      let entry = s.unread[converseId];
      for (const m of messages) entry = countMessage(entry, m, meId, reading);
      if (entry !== s.unread[converseId]) unread = { ...s.unread, [converseId]: entry! };
    }
    return { converses: next, unread };
  });
  ensureUsers(messages.map((m) => m.authorId));
  // My own messages moved my read position on the server when they were stored.
  if (reading) markConverseRead(converseId, { arrivedWhileReading: messages.some((m) => m.authorId !== meId) });
}

/** In a window short of the newest, messages past its end would leave a gap: they are loaded with the rest later. */
function withinWindow(held: ConverseMessages, messages: Message[]): Message[] {
  const end = held.items.at(-1)?.seq;
  return held.hasNewer && end !== undefined ? messages.filter((m) => m.seq <= end) : messages;
}

/** Loads the newest page when a converse is opened for the first time (or after a gap). */
export async function openConverse(converseId: string): Promise<void> {
  const held = getState().converses[converseId];
  if (held?.loaded) return;
  patchConverse(converseId, () => ({ loadingOlder: true }));
  try {
    const page = await api.call('chat.history', { converseId, limit: PAGE_SIZE });
    patchConverse(converseId, (c) => {
      const items = mergeMessages(c.items, page);
      return {
        items,
        pending: dropConfirmed(c.pending, page),
        loaded: true,
        hasOlder: items.length > 0 && items[0]!.seq > 1,
        loadingOlder: false,
      };
    });
    ensureUsers(page.map((m) => m.authorId));
  } catch (err) {
    patchConverse(converseId, () => ({ loadingOlder: false }));
    notify(t('notices.loadMessages', { reason: describeError(err) }));
  }
}

/** Loads the page just below the oldest message held (scrolling up). */
export async function loadOlder(converseId: string): Promise<void> {
  const held = getState().converses[converseId];
  if (!held?.loaded || !held.hasOlder || held.loadingOlder) return;
  const oldest = held.items[0];
  if (!oldest) return;
  patchConverse(converseId, () => ({ loadingOlder: true }));
  try {
    const page = await api.call('chat.history', { converseId, before: oldest.seq, limit: PAGE_SIZE });
    patchConverse(converseId, (c) => ({
      items: mergeMessages(c.items, page),
      hasOlder: page.length > 0 && page[0]!.seq > 1,
      loadingOlder: false,
    }));
    ensureUsers(page.map((m) => m.authorId));
  } catch (err) {
    patchConverse(converseId, () => ({ loadingOlder: false }));
    notify(t('notices.loadOlder', { reason: describeError(err) }));
  }
}

/** Forgets a converse's history (after a gap too large to sync): the next open loads the newest page. */
export function resetConverse(converseId: string): void {
  patchConverse(converseId, (c) => ({ ...emptyConverse(), pending: c.pending }));
}

const ackTimers = new Map<string, ReturnType<typeof setTimeout>>();
const ackedSeq = accountMap<string, number>('read positions sent');

// A read position waiting to be sent is the account's: it must not go out under the next one's token.
forgetOnSignOut('converse view and read timers', () => {
  view.converseId = null;
  view.atBottom = true;
  for (const timer of ackTimers.values()) clearTimeout(timer);
  ackTimers.clear();
});

/** Marks everything held of a converse read, locally at once and on the server shortly after. */
export function markConverseRead(converseId: string, opts: { arrivedWhileReading?: boolean } = {}): void {
  const s = getState();
  const entry = s.unread[converseId];
  const held = s.converses[converseId];
  // A window that stops short of the newest is read only as far as it goes.
  const last = held?.hasNewer
    ? (held.items.at(-1)?.seq ?? 0)
    : Math.max(entry?.lastSeq ?? 0, held?.items.at(-1)?.seq ?? 0);
  if (last <= 0) return;
  const readHere = entry !== undefined && entry.readSeq >= last && entry.unread === 0 && entry.mentions === 0;
  // Messages that arrived while I was reading are read here already (countMessage): the server still has to hear it.
  if (readHere && !opts.arrivedWhileReading) return;
  if (!readHere)
    setState((st) => ({
      unread: { ...st.unread, [converseId]: markReadUpTo(st.unread[converseId], converseId, last) },
    }));
  if ((ackedSeq.get(converseId) ?? 0) >= last) return;
  clearTimeout(ackTimers.get(converseId));
  ackTimers.set(
    converseId,
    setTimeout(() => {
      ackTimers.delete(converseId);
      ackedSeq.set(converseId, last);
      api.call('chat.ack', { converseId, seq: last }).catch(() => ackedSeq.delete(converseId));
    }, 250),
  );
}

export function applyReadPosition(converseId: string, readSeq: number): void {
  setState((s) => ({ unread: { ...s.unread, [converseId]: markReadUpTo(s.unread[converseId], converseId, readSeq) } }));
}

function setPending(converseId: string, clientMsgId: string, update: Partial<PendingMessage> | null): void {
  patchConverse(converseId, (c) => ({
    pending:
      update === null
        ? c.pending.filter((p) => p.clientMsgId !== clientMsgId)
        : c.pending.map((p) => (p.clientMsgId === clientMsgId ? { ...p, ...update } : p)),
  }));
}

/** Shows the message at once as pending, then confirms it with the server's copy or marks it failed. */
export function sendMessage(
  converseId: string,
  content: string,
  extra: { replyTo?: string; attachments?: string[] } = {},
): void {
  const pending: PendingMessage = {
    clientMsgId: newClientMsgId(),
    converseId,
    content,
    replyTo: extra.replyTo,
    attachments: extra.attachments ?? [],
    status: 'sending',
    createdAt: new Date().toISOString(),
  };
  patchConverse(converseId, (c) => ({ pending: [...c.pending, pending] }));
  void deliver(pending);
}

/**
 * Sends text that runs one of the group's slash commands: the server stores
 * nothing for it, so a note ("/deploy is working…") stands in for the
 * pending message until the server answers.
 */
export function sendCommand(converseId: string, content: string, command: SlashCommand): void {
  const clientMsgId = newClientMsgId();
  startCommandNote({ id: clientMsgId, converseId, command: command.trigger, botId: command.botId });
  void deliver(
    { clientMsgId, converseId, content, attachments: [], status: 'sending', createdAt: new Date().toISOString() },
    { command: true },
  );
}

/** Sends again with the same clientMsgId: the server stores the message at most once. */
export function retryMessage(converseId: string, clientMsgId: string): void {
  const pending = getState().converses[converseId]?.pending.find((p) => p.clientMsgId === clientMsgId);
  if (!pending) return;
  setPending(converseId, clientMsgId, { status: 'sending', error: undefined });
  void deliver(pending);
}

export function discardMessage(converseId: string, clientMsgId: string): void {
  setPending(converseId, clientMsgId, null);
}

/** Sends the messages waiting for the connection, in order per converse (called once connected again). */
export function retryFailedSends(): void {
  for (const [converseId, c] of Object.entries(getState().converses)) {
    for (const p of c.pending) if (p.status === 'queued') retryMessage(converseId, p.clientMsgId);
  }
}

/** Takes in the messages still unsent when the page closed (kept on this device): they wait like any queued one. */
export function restoreUnsent(unsent: readonly PendingMessage[]): void {
  for (const p of unsent) {
    patchConverse(p.converseId, (c) =>
      c.pending.some((held) => held.clientMsgId === p.clientMsgId) ? {} : { pending: [...c.pending, p] },
    );
  }
  if (currentSocket()?.connected) retryFailedSends();
}

/** Sends a message (or a command, which has a note instead of a pending message) and takes in the answer. */
function deliver(p: PendingMessage, opts: { command?: boolean } = {}): Promise<void> {
  // A message waits for the ones written before it in its converse; a command has no place in the timeline.
  return opts.command ? deliverNow(p, opts) : inOrder(p.converseId, () => deliverNow(p, opts));
}

async function deliverNow(p: PendingMessage, opts: { command?: boolean }): Promise<void> {
  const failed = (error: string) =>
    opts.command
      ? commandSendFailed(p.converseId, p.clientMsgId, error)
      : setPending(p.converseId, p.clientMsgId, { status: 'failed', error });
  // Without a connection a message waits (kept across a reload) and goes when it returns; the server
  // stores it once whatever happened to an earlier try (its clientMsgId).
  const offline = () =>
    opts.command
      ? failed(t('composer.notSentOffline'))
      : setPending(p.converseId, p.clientMsgId, { status: 'queued', error: undefined });
  // Cancelled while it waited for the ones before it.
  if (!opts.command && !getState().converses[p.converseId]?.pending.some((held) => held.clientMsgId === p.clientMsgId))
    return;
  const socket = currentSocket();
  if (!socket?.connected) return offline();
  let result: Ack<Message | CommandAccepted>;
  try {
    const body = {
      converseId: p.converseId,
      content: p.content,
      clientMsgId: p.clientMsgId,
      ...(p.replyTo ? { replyTo: p.replyTo } : {}),
      ...(p.attachments.length > 0 ? { attachments: p.attachments } : {}),
    };
    result = await socket.timeout(SEND_TIMEOUT_MS).emitWithAck('message:send', body);
  } catch {
    return offline();
  }
  if (!result.ok) return failed(sentenceFor(result.error.code, result.error.message));
  if (isCommandAccepted(result.data)) {
    // Nothing was stored: no message will confirm the pending copy, so it goes now.
    setPending(p.converseId, p.clientMsgId, null);
    commandAccepted(p.converseId, p.clientMsgId, result.data);
    return;
  }
  if (opts.command) dropCommandNote(p.converseId, p.clientMsgId);
  receiveMessages(p.converseId, [result.data]);
}

export async function editMessage(message: Message, content: string): Promise<boolean> {
  try {
    const updated = await api.call('chat.edit', { messageId: message.id, content });
    applyUpdatedMessage(updated);
    return true;
  } catch (err) {
    notify(t('notices.edit', { reason: describeError(err) }));
    return false;
  }
}

export async function deleteMessage(message: Message): Promise<void> {
  try {
    await api.call('chat.remove', { messageId: message.id });
    applyDeletedMessage(message.converseId, message.id);
  } catch (err) {
    notify(t('notices.delete', { reason: describeError(err) }));
  }
}

export function applyUpdatedMessage(message: Message): void {
  patchConverse(message.converseId, (c) => ({
    items: mergeMessages(c.items, withinWindow(c, [keepMyVotes(c.items, message)])),
  }));
  if (message.threadId) patchThreadReply(message.id, () => message, message.threadId);
}

export function applyDeletedMessage(converseId: string, messageId: string): void {
  const tombstone = (m: Message): Message => ({
    ...m,
    deleted: true,
    content: '',
    mentions: [],
    attachments: [],
    reactions: [],
  });
  patchConverse(converseId, (c) => ({ items: updateMessage(c.items, messageId, tombstone) }));
  patchThreadReply(messageId, tombstone);
}

export async function toggleReaction(message: Message, emoji: string): Promise<void> {
  const mine = message.reactions.some((r) => r.emoji === emoji && r.me);
  try {
    const reactions = await api.call(mine ? 'chat.unreact' : 'chat.react', { messageId: message.id, emoji });
    patchConverse(message.converseId, (c) => ({
      items: updateMessage(c.items, message.id, (m) => ({ ...m, reactions })),
    }));
    patchThreadReply(message.id, (m) => ({ ...m, reactions }), message.threadId);
  } catch (err) {
    notify(t('notices.react', { reason: describeError(err) }));
  }
}

export function applyReactionEvent(event: Parameters<ServerToClientEvents['reaction:updated']>[0]): void {
  const byMe = event.userId === getState().me?.id;
  const counted = (m: Message): Message => ({
    ...m,
    reactions: applyReactionCounts(m.reactions, event.counts, { emoji: event.emoji, byMe, added: event.added }),
  });
  patchConverse(event.converseId, (c) => ({ items: updateMessage(c.items, event.messageId, counted) }));
  patchThreadReply(event.messageId, counted);
}

const typingSentAt = accountMap<string, number>('typing sent at');
/** Tells the others we are typing, at most once per 2 s per converse (the server passes on no more). */
export function notifyTyping(converseId: string): void {
  const now = Date.now();
  if (now - (typingSentAt.get(converseId) ?? 0) < 2000) return;
  typingSentAt.set(converseId, now);
  currentSocket()?.emit('typing', { converseId });
}

/** A message held locally or fetched (replies to older messages). */
export async function fetchMessage(messageId: string): Promise<Message | null> {
  try {
    return await api.call('chat.getMessage', { messageId });
  } catch {
    return null;
  }
}
