import type { Message, ReminderNotification, ScheduledEntry, ScheduledUpdatedEvent } from '@im/protocol';
import { describeError } from '../api/errors.ts';
import type { ChatSocket } from '../api/socket.ts';
import { accountStore } from './account-state.ts';
import { receiveMessages } from './conversations.ts';
import { notify } from './store.ts';
import { api } from '../api/api.ts';
import { appLocale } from '../components/messages/format.ts';
import { t } from '../i18n/i18n.ts';

/** My scheduled messages (pending and failed), as the "Scheduled" list and the converse hint show them. */
export interface ScheduledState {
  items: ScheduledEntry[];
  loaded: boolean;
  /** The list is open. */
  open: boolean;
}

export const useScheduled = accountStore<ScheduledState>('scheduled messages', () => ({
  items: [],
  loaded: false,
  open: false,
}));

const bySendAt = (a: ScheduledEntry, b: ScheduledEntry) => a.sendAt.localeCompare(b.sendAt);

/** Puts in (or takes out) one entry; a sent one leaves the list. */
export function applyScheduled({ scheduled, removed }: ScheduledUpdatedEvent): void {
  useScheduled.setState((s) => {
    const rest = s.items.filter((i) => i.id !== scheduled.id);
    if (removed || scheduled.status === 'sent') return { items: rest };
    return { items: [...rest, scheduled].sort(bySendAt) };
  });
}

export async function loadScheduled(): Promise<void> {
  try {
    const items = await api.call('chat.listScheduled');
    useScheduled.setState({ items, loaded: true });
  } catch {
    // The list shows what events bring; the next open loads again.
  }
}

export function openScheduled(open = true): void {
  useScheduled.setState({ open });
  if (open) void loadScheduled();
}

/** Sends later; answers whether the server took it. */
export async function scheduleMessage(
  converseId: string,
  content: string,
  extra: { attachments: string[]; replyTo?: string },
  sendAt: Date,
): Promise<boolean> {
  try {
    const answer = await api.call('chat.send', {
      converseId,
      content,
      ...(extra.attachments.length > 0 ? { attachments: extra.attachments } : {}),
      ...(extra.replyTo ? { replyTo: extra.replyTo } : {}),
      sendAt: sendAt.toISOString(),
    });
    if (!('scheduled' in answer)) throw new Error(t('scheduled.notScheduled'));
    const { scheduled } = answer;
    applyScheduled({ scheduled: { ...scheduled, status: 'pending' } });
    notify(t('scheduled.done', { when: formatWhen(sendAt) }), 'info');
    return true;
  } catch (err) {
    notify(t('scheduled.failed', { reason: describeError(err) }));
    return false;
  }
}

export async function updateScheduled(id: string, change: { content?: string; sendAt?: Date }): Promise<boolean> {
  try {
    const updated = await api.call('chat.updateScheduled', {
      scheduledId: id,
      ...(change.content !== undefined ? { content: change.content } : {}),
      ...(change.sendAt ? { sendAt: change.sendAt.toISOString() } : {}),
    });
    applyScheduled({ scheduled: updated });
    return true;
  } catch (err) {
    notify(t('scheduled.changeFailed', { reason: describeError(err) }));
    return false;
  }
}

export async function cancelScheduled(entry: ScheduledEntry): Promise<void> {
  try {
    await api.call('chat.cancelScheduled', { scheduledId: entry.id });
    applyScheduled({ scheduled: entry, removed: true });
  } catch (err) {
    notify(t('scheduled.cancelFailed', { reason: describeError(err) }));
  }
}

export async function sendScheduledNow(entry: ScheduledEntry): Promise<void> {
  try {
    const message = await api.call('chat.sendScheduledNow', { scheduledId: entry.id });
    applyScheduled({ scheduled: { ...entry, status: 'sent', messageId: message.id } });
    receiveMessages(message.converseId, [message]);
  } catch (err) {
    notify(describeError(err));
    void loadScheduled();
  }
}

/** Sets a reminder of a message, with a confirmation saying when. */
export async function remindMe(message: Message, at: Date): Promise<void> {
  try {
    await api.call('chat.remind', { messageId: message.id, at: at.toISOString() });
    notify(t('scheduled.remindDone', { when: formatWhen(at) }), 'info');
  } catch (err) {
    notify(t('scheduled.remindFailed', { reason: describeError(err) }));
  }
}

/** "today 14:05", "tomorrow 09:00", or a date and time. */
export function formatWhen(at: Date, now = new Date()): string {
  const time = at.toLocaleTimeString(appLocale(), { hour: '2-digit', minute: '2-digit' });
  const day = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((day(at) - day(now)) / 86_400_000);
  if (days === 0) return t('scheduled.when.today', { time });
  if (days === 1) return t('scheduled.when.tomorrow', { time });
  const date = at.toLocaleDateString(appLocale(), { weekday: 'short', day: 'numeric', month: 'short' });
  return t('scheduled.when.date', { date, time });
}

/** A due reminder: a toast, and a system notification when allowed and the tab is hidden. */
function reminded(event: ReminderNotification): void {
  const text = t('scheduled.reminder.toast', { preview: event.notification.preview });
  notify(text, 'info');
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted' && document.hidden)
    new Notification(t('attention.why.reminder'), {
      body: event.notification.preview,
      tag: `reminder:${event.notification.id}`,
    });
}

/** Wires my schedule's events into the store (once per socket). */
export function attachScheduleEvents(socket: ChatSocket): void {
  socket.on('scheduled:updated', (event) => {
    applyScheduled(event);
    if (event.scheduled.status === 'failed') notify(t('scheduled.notSent', { reason: event.scheduled.failure ?? '' }));
  });
  socket.on('notification', (event) => {
    if (event.type === 'reminder') reminded(event as unknown as ReminderNotification);
  });
  socket.on('connect', () => void loadScheduled());
}
