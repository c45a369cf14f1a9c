import type { DndSchedule, PresenceStatus, UserStatus } from '@im/protocol';
import { inSchedule, nextScheduleBoundary } from '@im/protocol';

/** A user's status as stored; parts that ran out are left in place and read as gone. */
export interface StoredStatus {
  /** Do not disturb set by hand, until `until` when given. */
  dnd: boolean;
  until?: Date;
  text?: string;
  emoji?: string;
  /** When text and emoji clear themselves. */
  clearAt?: Date;
  schedule?: DndSchedule;
}

const running = (end: Date | undefined, now: number) => end === undefined || end.getTime() > now;

/** My status as I see it at `now`: a passed `until` or `clearAt` has ended what it ended. */
export function ownStatus(stored: StoredStatus | undefined, now: number): UserStatus {
  if (!stored) return { dnd: false };
  const dnd = stored.dnd && running(stored.until, now);
  const textRuns = running(stored.clearAt, now);
  return {
    dnd,
    ...(dnd && stored.until ? { until: stored.until.toISOString() } : {}),
    ...(textRuns && stored.text ? { text: stored.text } : {}),
    ...(textRuns && stored.emoji ? { emoji: stored.emoji } : {}),
    ...(textRuns && stored.clearAt && (stored.text || stored.emoji) ? { clearAt: stored.clearAt.toISOString() } : {}),
    ...(stored.schedule ? { schedule: stored.schedule } : {}),
  };
}

/** Whether the user is in do not disturb at `now`: set by hand and not ended, or inside the schedule's hours. */
export function isDnd(stored: StoredStatus | undefined, now: number): boolean {
  if (!stored) return false;
  return (stored.dnd && running(stored.until, now)) || (stored.schedule ? inSchedule(stored.schedule, now) : false);
}

/** What others see at `now` (presence without `online`/`away`, which the gateways know). */
export function shownStatus(stored: StoredStatus | undefined, now: number): Omit<PresenceStatus, 'online'> {
  const own = ownStatus(stored, now);
  return {
    ...(isDnd(stored, now) ? { dnd: true as const } : {}),
    ...(own.text ? { text: own.text } : {}),
    ...(own.emoji ? { emoji: own.emoji } : {}),
  };
}

/**
 * The next time what others see may change by itself (an `until` or
 * `clearAt` passing, the schedule's hours starting or ending); undefined
 * when nothing is due.
 */
export function nextChangeAt(stored: StoredStatus | undefined, now: number): Date | undefined {
  if (!stored) return undefined;
  const times = [
    stored.dnd && stored.until ? stored.until.getTime() : Infinity,
    stored.clearAt && (stored.text || stored.emoji) ? stored.clearAt.getTime() : Infinity,
    stored.schedule ? nextScheduleBoundary(stored.schedule, now) : Infinity,
  ].filter((t) => t > now);
  const next = Math.min(...times);
  return Number.isFinite(next) ? new Date(next) : undefined;
}
