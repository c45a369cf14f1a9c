import { invalid as invalidInput, limitReached } from '@im/sdk';

/** How far ahead a message may be scheduled or a reminder set. */
export const MAX_AHEAD_MS = 366 * 24 * 60 * 60 * 1000;
/** Scheduled messages, and reminders, one user may have waiting. */
export const MAX_PENDING = 100;

const invalid = (field: string, message: string) => invalidInput(message, [{ field, type: 'time', message }]);

/** `text` as a time in the future, at most MAX_AHEAD_MS ahead; a 400 naming `field` otherwise. */
export function futureTime(field: string, text: string, now = Date.now()): Date {
  const at = Date.parse(text);
  if (Number.isNaN(at)) throw invalid(field, `'${field}' is not a real time`);
  if (at <= now) throw invalid(field, `'${field}' must be in the future`);
  if (at > now + MAX_AHEAD_MS) throw invalid(field, `'${field}' must be at most a year ahead`);
  return new Date(at);
}

export const tooManyPending = (what: string) => limitReached(`At most ${MAX_PENDING} ${what} may wait at a time`);
