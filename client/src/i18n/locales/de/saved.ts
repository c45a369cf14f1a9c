import type { saved as en } from '../en/saved.ts';

export const saved: Record<keyof typeof en, string> = {
  'saved.entry': 'Gespeichert',
  'saved.title': 'Gespeicherte Nachrichten',
  'saved.empty': 'Noch nichts gespeichert. Mit „Speichern“ in den Aktionen einer Nachricht legst du sie hier ab.',
  'saved.more': 'Mehr anzeigen',
};
