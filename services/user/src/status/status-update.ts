import { invalid } from '@im/sdk';
import type { DndSchedule } from '@im/protocol';
import { isTimeZone } from '@im/protocol';
import type { StoredStatus } from './user-status.ts';

/** The `status` of `PATCH /api/users/me`, as validated by its schema. */
export interface StatusChange {
  dnd?: boolean;
  until?: string | null;
  text?: string | null;
  emoji?: string | null;
  clearAt?: string | null;
  schedule?: { start: string; end: string; timeZone: string; days?: number[] } | null;
}

const ONE_EMOJI = /^\p{RGI_Emoji}$/v;
const SHORTCODE = /^:[a-z0-9_+-]{1,32}:$/;

const invalidField = (field: string, message: string) => invalid(message, [{ field: `status.${field}`, message }]);

/** A time that must lie ahead of `now` (a past end would end nothing). */
function futureTime(field: string, value: string, now: number): Date {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw invalidField(field, `'status.${field}' is not a real time`);
  if (at.getTime() <= now) throw invalidField(field, `'status.${field}' must be in the future`);
  return at;
}

function checkedSchedule(schedule: NonNullable<StatusChange['schedule']>): DndSchedule {
  if (!isTimeZone(schedule.timeZone))
    throw invalidField(
      'schedule.timeZone',
      `'status.schedule.timeZone' must be an IANA time zone such as Europe/Berlin`,
    );
  if (schedule.start === schedule.end)
    throw invalidField('schedule.end', `'status.schedule.end' must differ from its start`);
  return {
    start: schedule.start,
    end: schedule.end,
    timeZone: schedule.timeZone,
    ...(schedule.days ? { days: [...schedule.days].sort((a, b) => a - b) } : {}),
  };
}

/**
 * The stored status after a change: what the change names is replaced
 * (null or empty clears it), the rest kept. Turning do not disturb off
 * drops its end; turning it on without `until` lasts until turned off.
 */
export function applyStatusChange(current: StoredStatus | undefined, change: StatusChange, now: number): StoredStatus {
  const next: StoredStatus = { ...(current ?? { dnd: false }) };
  if (change.dnd !== undefined) {
    next.dnd = change.dnd;
    delete next.until;
  }
  if (change.until != null) {
    if (!next.dnd) throw invalidField('until', `'status.until' needs do not disturb on (dnd: true)`);
    next.until = futureTime('until', change.until, now);
  } else if (change.until === null) delete next.until;
  if (change.text !== undefined) {
    if (change.text) next.text = change.text;
    else delete next.text;
  }
  if (change.emoji !== undefined) {
    if (change.emoji && !ONE_EMOJI.test(change.emoji) && !SHORTCODE.test(change.emoji))
      throw invalidField('emoji', `'status.emoji' must be one emoji or a :shortcode:`);
    if (change.emoji) next.emoji = change.emoji;
    else delete next.emoji;
  }
  if (change.clearAt !== undefined) {
    if (change.clearAt) next.clearAt = futureTime('clearAt', change.clearAt, now);
    else delete next.clearAt;
  } else if (change.text !== undefined || change.emoji !== undefined) {
    // A new text without an end of its own does not inherit the old one's.
    delete next.clearAt;
  }
  if (change.schedule !== undefined) {
    if (change.schedule) next.schedule = checkedSchedule(change.schedule);
    else delete next.schedule;
  }
  return next;
}
