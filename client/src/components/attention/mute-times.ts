import { t } from '../../i18n/i18n.ts';
import type { ChoiceName } from '../status/status-choices.ts';
import { appLocale } from '../messages/format.ts';

/** The mute lengths the menu offers, as the end time each means from `now`. */
export const MUTE_CHOICES: ReadonlyArray<ChoiceName & { until: (now: Date) => Date }> = [
  { label: 'keyboard.notify.muteHours', values: { count: 1 }, until: (now) => new Date(now.getTime() + 3_600_000) },
  { label: 'keyboard.notify.muteHours', values: { count: 8 }, until: (now) => new Date(now.getTime() + 8 * 3_600_000) },
  {
    label: 'keyboard.notify.muteTomorrow',
    // Tomorrow at 08:00 local time.
    until: (now) => new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 8, 0, 0, 0),
  },
];

/** "until 14:30" / "until Tue 08:00": when a mute ends, for the menu's status line. */
export function muteEndLabel(until: string, now = new Date()): string {
  const end = new Date(until);
  const time = end.toLocaleTimeString(appLocale(), { hour: '2-digit', minute: '2-digit' });
  return end.toDateString() === now.toDateString()
    ? t('attention.muteUntil', { time })
    : t('attention.muteUntilDay', { day: end.toLocaleDateString(appLocale(), { weekday: 'short' }), time });
}
