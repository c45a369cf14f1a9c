// Times, days and sizes in the app's language (Intl, with the language's
// own order and words), not the browser's.
import { htmlLangOf, isLanguage } from '../../i18n/languages.ts';
import { i18n, t } from '../../i18n/i18n.ts';

const FORMATS = {
  time: { hour: '2-digit', minute: '2-digit' },
  day: { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' },
  dateTime: { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' },
  yearDateTime: { dateStyle: 'medium', timeStyle: 'short' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

const made = new Map<string, Intl.DateTimeFormat>();

/** The BCP 47 tag of the app's language now. */
export function appLocale(): string {
  const language = i18n.resolvedLanguage;
  return isLanguage(language) ? htmlLangOf(language) : 'en';
}

function format(kind: keyof typeof FORMATS): Intl.DateTimeFormat {
  const locale = appLocale();
  let f = made.get(`${locale}:${kind}`);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, FORMATS[kind]);
    made.set(`${locale}:${kind}`, f);
  }
  return f;
}

export const formatTime = (iso: string): string => format('time').format(new Date(iso));

/** A moment as short as it can be: the time alone today, else with the date (and the year when not this one). */
export function formatMoment(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (sameDay(date, now)) return format('time').format(date);
  return format(date.getFullYear() === now.getFullYear() ? 'dateTime' : 'yearDateTime').format(date);
}

export function formatDay(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (sameDay(date, now)) return t('format.today');
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(date, yesterday)) return t('format.yesterday');
  return format('day').format(date);
}

export const sameDay = (a: Date, b: Date): boolean =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** A size in bytes, KB, MB or GB (steps of 1024), with the language's decimal sign. */
export function formatSize(bytes: number): string {
  let unit = 0;
  let value = bytes;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return t('format.bytes', { count: bytes });
  const digits = unit === 3 ? 2 : 1;
  return new Intl.NumberFormat(appLocale(), {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: digits,
  }).format(value);
}

/** Names as one list in the app's language ("Ann, Bob, Cy"; "Ann、Bob、Cy"). */
export const formatList = (items: readonly string[]): string =>
  new Intl.ListFormat(appLocale(), { type: 'unit' }).format(items);
