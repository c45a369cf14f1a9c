import type { moderation as en } from '../en/moderation.ts';

export const moderation: Record<keyof typeof en, string> = {
  'moderation.reports': 'Offene Meldungen',
  'moderation.reports.loading': 'Meldungen werden geladen …',
  'moderation.reports.none': 'Keine offenen Meldungen.',
  'moderation.deletedAccount': 'Ein gelöschtes Konto',
  'moderation.report.by': 'Meldung von {reporter}',
  'moderation.report.line': '{reporter} hat eine Nachricht von {author} gemeldet',
  'moderation.report.reason': 'Grund:',
  'moderation.report.dismiss': 'Verwerfen',
  'moderation.report.delete': 'Nachricht löschen',
};
