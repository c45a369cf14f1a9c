/** When a do not disturb schedule runs: the server announces by it, the app reads it for itself (stated once). */
import type { DndSchedule } from './attention.ts';

/** A wall-clock reading in one time zone. */
interface WallClock {
  year: number;
  month: number;
  day: number;
  /** 0 = Sunday. */
  weekday: number;
  /** Minutes since local midnight. */
  minutes: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone, made once: making them is the costly part. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      weekday: 'short',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

function wallClock(at: number, timeZone: string): WallClock {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ''),
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The instant a local date and time in `timeZone` names (the later one when a clock change makes it ambiguous). */
function instantOf(year: number, month: number, day: number, minutes: number, timeZone: string): number {
  const asUtc = Date.UTC(year, month - 1, day, 0, minutes);
  let guess = asUtc;
  // The zone's offset at the guess, applied twice: enough to settle across a clock change.
  for (let i = 0; i < 2; i++) {
    const w = wallClock(guess, timeZone);
    const offset = Date.UTC(w.year, w.month - 1, w.day, 0, w.minutes) - Math.floor(guess / 60_000) * 60_000;
    guess = asUtc - offset;
  }
  return guess;
}

/**
 * Whether the schedule's quiet hours run at `at`. Hours that pass midnight
 * (22:00-07:00) belong to the day they start on.
 */
export function inSchedule(schedule: DndSchedule, at: number): boolean {
  const start = minutesOf(schedule.start);
  const end = minutesOf(schedule.end);
  const now = wallClock(at, schedule.timeZone);
  const onDay = (weekday: number) => !schedule.days || schedule.days.includes(weekday);
  if (start < end) return onDay(now.weekday) && now.minutes >= start && now.minutes < end;
  if (now.minutes >= start) return onDay(now.weekday);
  return now.minutes < end && onDay((now.weekday + 6) % 7);
}

/**
 * The first start or end of the quiet hours after `at` (on any weekday: a
 * boundary on a day off changes nothing, and the check there finds so).
 */
export function nextScheduleBoundary(schedule: DndSchedule, at: number): number {
  const today = wallClock(at, schedule.timeZone);
  let next = Infinity;
  for (let offset = 0; offset <= 2; offset++) {
    for (const hhmm of [schedule.start, schedule.end]) {
      const instant = instantOf(today.year, today.month, today.day + offset, minutesOf(hhmm), schedule.timeZone);
      if (instant > at && instant < next) next = instant;
    }
  }
  return next;
}
