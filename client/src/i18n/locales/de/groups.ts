import type { groups as en } from '../en/groups.ts';

export const groups: Record<keyof typeof en, string> = {
  'groups.saved': 'Gespeichert.',
  'groups.visibility.legend': 'Wer {group} finden und beitreten kann',
  'groups.visibility.private': 'Privat',
  'groups.visibility.private.hint': 'Nur Personen mit Einladung können beitreten.',
  'groups.visibility.public': 'Öffentlich',
  'groups.visibility.public.hint':
    'Unter „Entdecken“ aufgeführt, wo alle Angemeldeten sie finden und ohne Einladung beitreten können. Ihre Kanäle können im Web lesbar gemacht werden.',
  'groups.visibility.privateWarning':
    'Wird die Gruppe privat, verschwinden auch {count, plural, one {ihr öffentlicher Web-Kanal} other {ihre # öffentlichen Web-Kanäle}} aus dem Web: Seiten und Feeds funktionieren sofort nicht mehr.',
  'groups.description': 'Beschreibung',
  'groups.description.hint': 'Wird unter „Entdecken“ und auf öffentlichen Webseiten angezeigt. {count}/{max} Zeichen.',
  'groups.language': 'Sprache der öffentlichen Seiten und Feeds',
  'groups.language.hint': 'Öffentliche Webseiten und Feeds erscheinen in dieser Sprache.',
};
