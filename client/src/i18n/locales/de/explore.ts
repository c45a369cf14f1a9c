import type { explore as en } from '../en/explore.ts';

export const explore: Record<keyof typeof en, string> = {
  'explore.title': 'Öffentliche Gruppen entdecken',
  'explore.back': 'Zurück zur Liste',
  'explore.search': 'Öffentliche Gruppen durchsuchen',
  'explore.search.placeholder': 'Gruppenname',
  'explore.loadFailed': 'Das Verzeichnis konnte nicht geladen werden: {reason}',
  'explore.noMatch': 'Keine öffentlichen Gruppen passen zu „{query}“.',
  'explore.none':
    'Noch keine öffentlichen Gruppen. Inhaber und Admins können eine Gruppe in den Gruppeneinstellungen unter „Sichtbarkeit“ öffentlich machen.',
  'explore.list': 'Öffentliche Gruppen',
  'explore.more': 'Mehr laden',
  'explore.notPublic': 'Diese Gruppe ist nicht mehr öffentlich.',
  'explore.members': '{count, plural, one {# Mitglied} other {# Mitglieder}}',
  'explore.open': 'Öffnen',
  'explore.join': 'Beitreten',
  'explore.joining': 'Trete bei …',
};
