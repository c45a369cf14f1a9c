import type { Message } from '@im/protocol';
import { describeError } from '../api/errors.ts';
import type { ChatSocket } from '../api/socket.ts';
import { applyUpdatedMessage } from './conversations.ts';
import { newClientMsgId } from './messages.ts';
import { getState, notify } from './store.ts';
import { useThreads } from './thread-store.ts';
import { api, storedMessage } from '../api/api.ts';
import { t } from '../i18n/i18n.ts';

export { useThreads, type ThreadsState } from './thread-store.ts';

const byId = (list: Message[], message: Message) =>
  [...list.filter((m) => m.id !== message.id), message].sort((a, b) => a.seq - b.seq);

/** Marks a thread read up to `seq` on the server and here. */
async function ack(rootId: string, seq: number): Promise<void> {
  useThreads.setState((s) => ({
    followed:
      s.followed?.map((t) => (t.root.id === rootId ? { ...t, unread: 0, readSeq: Math.max(t.readSeq, seq) } : t)) ??
      null,
  }));
  try {
    await api.call('chat.threadAck', { messageId: rootId, seq });
  } catch {
    // Only the badge depends on it: the next listing shows the server's count.
  }
}

/** Opens the pane on a thread, loads its replies and marks them read. */
export async function openThread(converseId: string, rootId: string): Promise<void> {
  useThreads.setState({ open: { converseId, rootId } });
  try {
    const replies = await api.call('chat.thread', { messageId: rootId, limit: 100 });
    useThreads.setState((s) => ({ replies: { ...s.replies, [rootId]: replies } }));
    const last = replies.at(-1);
    if (last) await ack(rootId, last.seq);
  } catch (err) {
    notify(t('notices.openThread', { reason: describeError(err) }));
  }
}

export function closeThread(): void {
  useThreads.setState({ open: null });
}

/** Sends a reply in a thread, with files and a quoted message (idempotent: a retry stores one reply). */
export async function sendThreadReply(
  converseId: string,
  rootId: string,
  content: string,
  extra: { attachments?: string[]; replyTo?: string } = {},
): Promise<boolean> {
  try {
    const reply = storedMessage(
      await api.call('chat.send', {
        converseId,
        content,
        threadId: rootId,
        clientMsgId: newClientMsgId(),
        ...(extra.replyTo ? { replyTo: extra.replyTo } : {}),
        ...(extra.attachments?.length ? { attachments: extra.attachments } : {}),
      }),
    );
    receiveThreadReply(reply);
    return true;
  } catch (err) {
    notify(t('notices.send', { reason: describeError(err) }));
    return false;
  }
}

/**
 * A reply arrived (live or my own send): the open pane shows it (and it is
 * read), a followed thread that is not open counts it as unread.
 */
export function receiveThreadReply(reply: Message): void {
  const rootId = reply.threadId;
  if (!rootId) return;
  const { open, replies, followed } = useThreads.getState();
  const mine = reply.authorId === getState().me?.id;
  if (replies[rootId]) useThreads.setState({ replies: { ...replies, [rootId]: byId(replies[rootId], reply) } });
  if (open?.rootId === rootId || mine) {
    if (followed?.some((t) => t.root.id === rootId)) void ack(rootId, reply.seq);
    return;
  }
  const known = followed?.find((t) => t.root.id === rootId);
  if (known && reply.seq > known.readSeq) {
    useThreads.setState({
      followed: [
        { ...known, unread: known.unread + 1, lastReplyAt: reply.createdAt },
        ...followed!.filter((t) => t !== known),
      ],
    });
  } else if (!known && followed && isMine(reply)) void loadFollowed();
}

/** Whether a reply is in a thread I follow (listed, or started by me), or makes me follow it. */
export function followsThread(reply: Message): boolean {
  return useThreads.getState().followed?.some((t) => t.root.id === reply.threadId) === true || isMine(reply);
}

/** A reply that makes me follow a thread I did not: a reply to my message, or one mentioning me. */
function isMine(reply: Message): boolean {
  const me = getState().me?.id;
  if (!me) return false;
  if (reply.mentions.includes(me)) return true;
  const root = getState().converses[reply.converseId]?.items.find((m) => m.id === reply.threadId);
  return root?.authorId === me;
}

/** A root's summary changed (message:updated): the followed list shows the new root. */
export function applyRootUpdate(message: Message): void {
  const { followed } = useThreads.getState();
  if (!message.thread || !followed?.some((t) => t.root.id === message.id)) return;
  useThreads.setState({ followed: followed.map((t) => (t.root.id === message.id ? { ...t, root: message } : t)) });
}

/** The threads I follow (first page, newest activity first). */
export async function loadFollowed(): Promise<void> {
  try {
    const page = await api.call('chat.threads', { limit: 50 });
    useThreads.setState({ followed: page.items });
  } catch (err) {
    notify(t('notices.loadThreads', { reason: describeError(err) }));
  }
}

/** Pins or unpins a message (admins in groups, either member of a DM); the list shows the answer at once. */
export async function togglePin(message: Message): Promise<void> {
  try {
    const updated = await api.call(message.pinned ? 'chat.unpin' : 'chat.pin', { messageId: message.id });
    applyUpdatedMessage(updated);
  } catch (err) {
    notify(
      message.pinned
        ? t('notices.unpin', { reason: describeError(err) })
        : t('notices.pin', { reason: describeError(err) }),
    );
  }
}

/** A converse's pinned messages, newest pin first. */
export function loadPins(converseId: string): Promise<Message[]> {
  return api.call('chat.pins', { converseId });
}

/** Thread replies and root summaries from the socket (besides the converse's own handling of them). */
export function attachThreadEvents(socket: ChatSocket): void {
  socket.on('message:new', (message) => receiveThreadReply(message));
  socket.on('message:updated', (message) => applyRootUpdate(message));
}
