import { t } from '../i18n/i18n.ts';
import { inSchedule, type PresenceStatus, type UserStatus } from '@im/protocol';
import type { ChatSocket } from '../api/socket.ts';
import { forgetOnSignOut } from './account-state.ts';
import { getState, setState } from './store.ts';
import { watchIdle } from './idle.ts';
import { api } from '../api/api.ts';

/** `PATCH /api/users/me {status}`: what is given changes; null or '' clears a part. */
export interface StatusChange {
  dnd?: boolean;
  until?: string | null;
  text?: string | null;
  emoji?: string | null;
  clearAt?: string | null;
  schedule?: UserStatus['schedule'];
}

/** Changes my status; the answer (and `status:updated` on my other devices) is what the menu shows. */
export async function changeMyStatus(change: StatusChange): Promise<UserStatus> {
  const user = await api.call('user.updateMe', { status: change });
  setState({ myStatus: user.status });
  return user.status;
}

/** Whether I am in do not disturb now: set by hand and not ended, or inside my schedule's hours. */
export function isDndNow(status: UserStatus | null = getState().myStatus, now = Date.now()): boolean {
  if (!status) return false;
  const byHand = status.dnd && (!status.until || Date.parse(status.until) > now);
  return byHand || (status.schedule ? inSchedule(status.schedule, now) : false);
}

/** Someone's presence changed: the dot and the custom status follow. */
export function applyPresence(event: { userId: string } & PresenceStatus): void {
  const { userId, ...status } = event;
  setState((s) => ({
    presence: s.presence[userId] === status.online ? s.presence : { ...s.presence, [userId]: status.online },
    statuses: { ...s.statuses, [userId]: status },
  }));
}

/** Stops watching this tab go idle: the watch belongs to the session's socket. */
let stopIdleWatch: (() => void) | null = null;
forgetOnSignOut('idle watch', () => {
  stopIdleWatch?.();
  stopIdleWatch = null;
});

/** Socket events of status: others' presence, my own status from my other devices, and this tab going idle. */
export function attachStatusEvents(socket: ChatSocket): void {
  socket.on('presence', applyPresence);
  socket.on('status:updated', (status) => setState({ myStatus: status }));
  const stop = watchIdle((idle) => {
    if (socket.connected) socket.emit('presence:idle', { idle });
  });
  // A new socket counts as active: an idle tab says so again.
  socket.on('connect', () => {
    if (stop.idle()) socket.emit('presence:idle', { idle: true });
  });
  stopIdleWatch?.();
  stopIdleWatch = stop.stop;
}

/** The label of a status as the app shows it beside a dot. */
export function presenceLabel(status: PresenceStatus | undefined, online: boolean | undefined): string {
  if (status?.dnd) return t('status.presence.dnd');
  if (!(status?.online ?? online)) return t('status.presence.offline');
  return t(status?.away ? 'status.presence.away' : 'status.presence.online');
}
