import { t } from '../i18n/i18n.ts';
import type { Message, SyncResult } from '@im/protocol';
import { mentionsMe } from './mentions-me.ts';
import { applyReceipt } from './receipts.ts';
import { attachAttentionEvents, isMuted, loadAttention, settingOf, useAttention } from './attention.ts';
import { ApiRequestError } from '../api/errors.ts';
import { jittered, refusedRetryDelayMs, type HandshakeRefusal } from '../api/reconnect.ts';
import type { ChatSocket } from '../api/socket.ts';
import { showMessageNotification, type NotifyReason } from '../push/notifications.ts';
import { commandAnswered } from './command-sends.ts';
import { commandsChanged, forgetCommandAges } from './commands.ts';
import { currentSocket } from './connection.ts';
import { attachStatusEvents, isDndNow } from './status.ts';
import {
  applyDeletedMessage,
  applyReactionEvent,
  applyReadPosition,
  applyUpdatedMessage,
  openConverse,
  receiveMessages,
  resetConverse,
  retryFailedSends,
} from './conversations.ts';
import {
  applyMemberJoined,
  applyMemberUpdate,
  dropMember,
  invalidateMembers,
  loadDms,
  loadGroups,
  putDm,
  removeGroup,
  updateGroup,
  updateMemberCount,
  updatePanels,
} from './groups.ts';
import { receiveEphemeral } from './ephemeral.ts';
import { applySubmessage } from './submessages.ts';
import { applyRoles, forgetRoles, refreshMyPermissions } from './roles.ts';
import { applyUserGroups, forgetUserGroups } from './user-groups.ts';
import { attachThreadEvents, followsThread } from './threads.ts';
import { attachScheduleEvents } from './scheduled.ts';
import { loadPresence } from './presence.ts';
import { getState, setState } from './store.ts';
import { mergeServerUnread } from './unread.ts';
import { applyUserUpdated } from './users.ts';
import { loadCustomEmoji, useCustomEmoji } from './custom-emoji.ts';
import { forgetOnSignOut } from './account-state.ts';
import { applyCallUpdate, applyDeclined, applyRinging, loadRinging, refreshCallStates } from './calls.ts';
import { api } from '../api/api.ts';
import { noticeGroupGone, noticePanelDeleted } from './departures.ts';

const SYNC_TIMEOUT_MS = 20_000;
const TYPING_SHOWN_MS = 4000;

/** Wires the server's events into the store. Called once per socket. */
export function attachRealtime(socket: ChatSocket, onUnauthorized: () => void): void {
  let refusals = 0;
  /** Why the server said it closes this socket (`socket:closing`), until the next connect. */
  let closingCode: string | undefined;
  socket.on('connect', () => {
    refusals = 0;
    closingCode = undefined;
    setState({ connection: 'online' });
    void catchUp(socket);
  });
  socket.on('socket:closing', (event) => (closingCode = event.code));
  // The gateway lost the cluster for a while: events may be missing, as after a reconnect of our own.
  socket.on('sync:required', () => void catchUp(socket));
  socket.on('disconnect', (reason) => {
    // Closed because its session ended: the state it would touch is the next account's.
    if (currentSocket() !== socket) return;
    // Closed as the oldest of too many windows: coming back would close another one, so it stays closed.
    if (reason === 'io server disconnect' && closingCode === 'IM_ERR_LIMIT')
      return setState({ connection: 'displaced' });
    setState({ connection: reason === 'io client disconnect' ? 'offline' : 'reconnecting' });
    if (reason === 'io server disconnect') void afterServerClose(socket);
  });
  socket.on('connect_error', (err) => {
    const data = (err as Error & { data?: HandshakeRefusal }).data;
    if (data?.code === 'IM_ERR_UNAUTHORIZED') return onUnauthorized();
    setState({ connection: 'reconnecting' });
    // A handshake the server refused (busy, or a dependency down) is not
    // retried by socket.io itself: try again after a delay of our own.
    if (!socket.active) {
      refusals += 1;
      const delay = refusedRetryDelayMs(refusals, data ?? {});
      setTimeout(() => {
        if (currentSocket() === socket && !socket.connected && !socket.active) socket.connect();
      }, delay);
    }
  });

  socket.on('message:new', (message) => {
    // The message ends its author's typing there: no "is typing…" under what they just sent.
    stopTyping(message.converseId, message.authorId);
    receiveMessages(message.converseId, [message]);
    commandAnswered(message.converseId, { botId: message.authorId });
    maybeNotify(message);
  });
  socket.on('message:ephemeral', (message) => receiveEphemeral(message));
  attachThreadEvents(socket);
  attachAttentionEvents(socket);
  attachScheduleEvents(socket);
  socket.on('message:updated', (message) => applyUpdatedMessage(message));
  socket.on('message:deleted', (event) => applyDeletedMessage(event.converseId, event.messageId));
  socket.on('reaction:updated', (event) => applyReactionEvent(event));
  socket.on('message:submessage', (submessage) => applySubmessage(submessage));
  socket.on('converse:read', (event) => applyReadPosition(event.converseId, event.readSeq));
  socket.on('read:updated', (event) => applyReceipt(event));
  socket.on('typing', (event) => showTyping(event.converseId, event.userId));

  socket.on('group:updated', (group) => updateGroup(group));
  socket.on('group:deleted', (event) => {
    noticeGroupGone(event.groupId, 'deleted');
    removeGroup(event.groupId);
  });
  socket.on('member:joined', (event) => {
    applyMemberJoined(event.groupId, event.userId, event.role);
    // Someone who shares no other group with me was never asked about: whether they are online.
    if (getState().presence[event.userId] === undefined) void loadPresence([event.userId]);
  });
  socket.on('user:updated', (user) => applyUserUpdated(user));
  // Only a list already shown is loaded again; others load when first needed.
  socket.on('emoji:changed', ({ groupId }) => {
    if (useCustomEmoji.getState().byGroup[groupId]) void loadCustomEmoji(groupId, true);
  });
  socket.on('member:left', (event) => {
    if (event.userId === getState().me?.id) {
      if (event.removed) noticeGroupGone(event.groupId, 'removed');
      removeGroup(event.groupId);
    } else {
      dropMember(event.groupId, event.userId);
      updateMemberCount(event.groupId, -1);
    }
  });
  socket.on('member:updated', (event) => {
    applyMemberUpdate(event.groupId, event.userId, event.role, event.mutedUntil, event.roleIds);
    if (event.userId === getState().me?.id) refreshMyPermissions(event.groupId);
  });
  socket.on('roles:updated', (event) => applyRoles(event.groupId, event.roles));
  socket.on('usergroups:updated', (event) => applyUserGroups(event.groupId, event.userGroups));
  socket.on('panel:created', (event) =>
    updatePanels(event.groupId, (panels) =>
      panels.some((p) => p.id === event.panel.id) ? panels : [...panels, event.panel],
    ),
  );
  socket.on('panel:updated', (event) =>
    updatePanels(event.groupId, (panels) => panels.map((p) => (p.id === event.panel.id ? event.panel : p))),
  );
  socket.on('integrations:changed', (event) => commandsChanged(event.groupId));
  socket.on('panel:deleted', (event) => {
    noticePanelDeleted(event.groupId, event.panelId);
    updatePanels(event.groupId, (panels) => panels.filter((p) => p.id !== event.panelId));
  });
  socket.on('dm:opened', (dm) => putDm(dm));
  attachStatusEvents(socket);
  socket.on('call:updated', (state) => applyCallUpdate(state));
  socket.on('call:ringing', (event) => applyRinging(event));
  socket.on('call:declined', (event) => applyDeclined(event));
}

/** Around this long (±50%) before reconnecting after the server closed the socket. */
const SERVER_CLOSE_RETRY_MS = 2000;

/**
 * The server closed the socket on purpose, and socket.io does not reconnect
 * then: the session may have ended (revoked, account deactivated), which one
 * authenticated call tells (its 401 ends the session here); otherwise connect again.
 */
async function afterServerClose(socket: ChatSocket): Promise<void> {
  // Every socket a gateway closes at once (a restart, a failed room load) must not come back at once.
  await new Promise((resolve) => setTimeout(resolve, jittered(SERVER_CLOSE_RETRY_MS)));
  try {
    await api.call('user.me');
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 401) return;
  }
  if (currentSocket() === socket && !socket.connected) socket.connect();
}

/**
 * After every connect: `sync` from the last seq held of each loaded converse
 * (nothing missed, nothing twice: messages merge by id), then fresh lists and
 * counters, since events sent while we were away are gone.
 */
async function catchUp(socket: ChatSocket): Promise<void> {
  const cursors: Record<string, number> = {};
  for (const [converseId, c] of Object.entries(getState().converses)) {
    const last = c.items.at(-1);
    if (c.loaded && last) cursors[converseId] = last.seq;
  }
  try {
    const result = await socket.timeout(SYNC_TIMEOUT_MS).emitWithAck('sync', { cursors });
    // An answer that arrives after the session ended is the previous account's.
    if (currentSocket() !== socket) return;
    if (result.ok) applySync(result.data);
  } catch {
    // The next connect syncs again; a socket that connected but cannot sync is about to drop.
    return;
  }
  retryFailedSends();
  invalidateMembers();
  forgetRoles();
  forgetUserGroups();
  forgetCommandAges();
  refreshCallStates();
  await Promise.all([loadGroups(), loadDms(), loadUnread(), loadRinging(), loadAttention()]).catch(() => undefined);
}

function applySync(result: SyncResult): void {
  const route = getState().route;
  const open = route.name === 'group' ? route.converseId : route.name === 'dm' ? route.converseId : undefined;
  for (const [converseId, missed] of Object.entries(result.converses)) {
    if (missed.tooMany) {
      resetConverse(converseId);
      if (converseId === open) void openConverse(converseId);
      continue;
    }
    receiveMessages(converseId, missed.messages);
  }
}

export async function loadUnread(): Promise<void> {
  const entries = await api.call('chat.unread');
  setState((s) => ({ unread: mergeServerUnread(s.unread, entries) }));
}

const typingTimers = new Map<string, ReturnType<typeof setTimeout>>();

forgetOnSignOut('typing timers', () => {
  for (const timer of typingTimers.values()) clearTimeout(timer);
  typingTimers.clear();
});

function showTyping(converseId: string, userId: string): void {
  if (userId === getState().me?.id) return;
  const until = Date.now() + TYPING_SHOWN_MS;
  setState((s) => ({ typing: { ...s.typing, [converseId]: { ...s.typing[converseId], [userId]: until } } }));
  const key = `${converseId}:${userId}`;
  clearTimeout(typingTimers.get(key));
  typingTimers.set(
    key,
    setTimeout(() => stopTyping(converseId, userId), TYPING_SHOWN_MS),
  );
}

export function stopTyping(converseId: string, userId: string): void {
  const key = `${converseId}:${userId}`;
  clearTimeout(typingTimers.get(key));
  typingTimers.delete(key);
  if (getState().typing[converseId]?.[userId] === undefined) return;
  setState((s) => {
    const forConverse = { ...s.typing[converseId] };
    delete forConverse[userId];
    return { typing: { ...s.typing, [converseId]: forConverse } };
  });
}

/** Mentions, DMs, replies in threads I follow (and any message at level `all`) raise a system notification while the tab is hidden. */
function maybeNotify(message: Message): void {
  const s = getState();
  const me = s.me;
  if (!me || message.authorId === me.id || typeof document === 'undefined' || !document.hidden) return;
  // Do not disturb: no system notification until it ends.
  if (isDndNow()) return;
  const why = notifyReason(message, me.id);
  if (!why) return;
  const author = s.users[message.authorId];
  void showMessageNotification(message, author ? author.nickname || author.username : t('push.title.message'), why);
}

/** Why a message is worth a system notification, by my level of its converse (none while muted). */
export function notifyReason(message: Message, meId: string): NotifyReason | undefined {
  const app = getState();
  const setting = settingOf(message.converseId, app, useAttention.getState().levels);
  if (isMuted(setting)) return undefined;
  if (app.dms[message.converseId]) return 'dm';
  if (mentionsMe(message, meId)) return 'mention';
  if (message.threadId && followsThread(message)) return 'thread';
  return setting.level === 'all' ? 'message' : undefined;
}
