import type { join as en } from '../en/join.ts';

export const join: Record<keyof typeof en, string> = {
  'join.gone':
    'Diese Einladung ist nicht mehr gültig: Sie ist abgelaufen, aufgebraucht oder wurde widerrufen. Bitte um eine neue.',
  'join.invitedBy': '{name} hat dich eingeladen in',
  'join.memberCount': '{count, plural, one {# Mitglied} other {# Mitglieder}}',
  'join.title': '{name} beitreten',
  'join.signup': 'Konto erstellen und beitreten',
  'join.join': '{name} beitreten',
  'join.dialogTitle': 'Einer Gruppe beitreten',
  'join.codeLabel': 'Einladungslink oder -code',
  'join.joinButton': 'Beitreten',
  'join.login': 'Anmelden und beitreten',
};
