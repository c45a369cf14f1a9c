// Sicherheit: Benutzer blockieren und das Prüfprotokoll.
import type { safety as english } from '../en/safety.ts';

export const safety: Record<keyof typeof english, string> = {
  'safety.block': 'Blockieren',
  'safety.unblock': 'Blockierung aufheben',
  'safety.blockedHint':
    'Blockiert: keine Direktnachrichten zwischen euch, und die Nachrichten dieser Person werden eingeklappt. Sie erfährt davon nichts.',
  'safety.blockedMessage': 'Nachricht von einem blockierten Benutzer.',
  'safety.showMessage': 'Anzeigen',
  'safety.blockedUsers.title': 'Blockierte Benutzer',
  'safety.blockedUsers.none': 'Du hast niemanden blockiert.',
  'safety.blockedUsers.someone': 'Jemand',
  'safety.blockedUsers.since': '@{username} · blockiert am {at, date, medium}',
  'safety.audit.label': 'Prüfprotokoll',
  'safety.audit.empty': 'Noch nichts aufgezeichnet.',
  'safety.audit.loadMore': 'Mehr laden',
  'safety.audit.someone': 'jemand',
  'safety.audit.inGroup': 'in {group}',
};
