import { t } from '../../i18n/i18n.ts';
import type { MessageKey } from '../../i18n/locales/en/index.ts';
import { appLocale } from '../messages/format.ts';

/** A menu choice's name: a message key and its arguments (the count of a length). */
export interface ChoiceName {
  label: MessageKey;
  values?: { count: number };
}

/** The ends the status menu offers for do not disturb (null: until I turn it off). */
export const DND_CHOICES: ReadonlyArray<ChoiceName & { until: (now: Date) => Date | null }> = [
  dndFor('keyboard.status.dndMinutes', 30, 60_000),
  dndFor('keyboard.status.dndHours', 1, 60 * 60_000),
  dndFor('keyboard.status.dndHours', 8, 60 * 60_000),
  { label: 'keyboard.status.dndTomorrow', until: tomorrowMorning },
  { label: 'keyboard.status.dndOff', until: () => null },
];

/** "For 30 minutes": `count` units of `unitMs` from now. */
function dndFor(label: MessageKey, count: number, unitMs: number) {
  return { label, values: { count }, until: (now: Date) => new Date(now.getTime() + count * unitMs) };
}

/** 09:00 tomorrow, on this device's clock. */
function tomorrowMorning(now: Date): Date {
  const next = new Date(now);
  next.setDate(next.getDate() + 1);
  next.setHours(9, 0, 0, 0);
  return next;
}

/** When a custom status clears itself ("clear after"); null: never. */
export const CLEAR_CHOICES: ReadonlyArray<{ value: string; label: MessageKey; at: (now: Date) => Date | null }> = [
  { value: 'never', label: 'status.clear.never', at: () => null },
  { value: '30m', label: 'status.clear.30m', at: (now) => new Date(now.getTime() + 30 * 60_000) },
  { value: '1h', label: 'status.clear.1h', at: (now) => new Date(now.getTime() + 60 * 60_000) },
  { value: '4h', label: 'status.clear.4h', at: (now) => new Date(now.getTime() + 4 * 60 * 60_000) },
  { value: 'today', label: 'status.clear.today', at: endOfDay },
];

function endOfDay(now: Date): Date {
  const end = new Date(now);
  end.setHours(23, 59, 0, 0);
  return end.getTime() > now.getTime() ? end : new Date(now.getTime() + 60_000);
}

/** A few emoji to pick with one click; any other can be typed. */
export const QUICK_EMOJI = ['📅', '🍜', '🏠', '🤒', '🌴', '🎧', '🚗', '💬'];

/** "until 14:30" / "until Tue 09:00": when do not disturb ends, said briefly. */
export function untilLabel(iso: string, now = new Date()): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString(appLocale(), { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === now.toDateString()
    ? t('attention.muteUntil', { time })
    : t('attention.muteUntilDay', { day: at.toLocaleDateString(appLocale(), { weekday: 'short' }), time });
}
