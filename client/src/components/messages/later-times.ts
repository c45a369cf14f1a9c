import { t } from '../../i18n/i18n.ts';

/** The quick choices of "Send later" and "Remind me", as times from `now` (local time). */
export interface LaterChoice {
  label: string;
  at: Date;
}

const atNine = (day: Date) => new Date(day.getFullYear(), day.getMonth(), day.getDate(), 9, 0, 0, 0);

/** Tomorrow at 9:00. */
export const tomorrowMorning = (now: Date) => atNine(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1));

/** The next Monday at 9:00 (a week ahead on a Monday). */
export function nextMondayMorning(now: Date): Date {
  const ahead = (8 - now.getDay()) % 7 || 7;
  return atNine(new Date(now.getFullYear(), now.getMonth(), now.getDate() + ahead));
}

export const sendLaterChoices = (now: Date): LaterChoice[] => [
  { label: t('scheduled.in1h'), at: new Date(now.getTime() + 3_600_000) },
  { label: t('scheduled.tomorrow9'), at: tomorrowMorning(now) },
  { label: t('scheduled.monday9'), at: nextMondayMorning(now) },
];

export const remindChoices = (now: Date): LaterChoice[] => [
  { label: t('scheduled.in20m'), at: new Date(now.getTime() + 20 * 60_000) },
  { label: t('scheduled.in1h'), at: new Date(now.getTime() + 3_600_000) },
  { label: t('scheduled.tomorrow9'), at: tomorrowMorning(now) },
];

/** A Date as a `datetime-local` input's value (local time, to the minute). */
export function toLocalInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A `datetime-local` value as a Date (local time); null when empty or not a time. */
export function fromLocalInput(value: string): Date | null {
  if (!value) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}
