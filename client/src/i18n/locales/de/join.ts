import type { join as en } from '../en/join.ts';

export const join: Record<keyof typeof en, string> = {
  'join.gone':
    'Diese Einladung ist nicht mehr gültig: Sie ist abgelaufen, aufgebraucht oder wurde widerrufen. Bitte um eine neue.',
  'join.invitedBy': '{name} hat dich eingeladen in',
  'join.memberCount': '{count, plural, one {# Mitglied} other {# Mitglieder}}',
  'join.signup': 'Konto erstellen und beitreten',
  'join.dialogTitle': 'Einer Gruppe beitreten',
  'join.codeLabel': 'Einladungslink oder -code',
  'join.joinButton': 'Beitreten',
  'join.login': 'Anmelden und beitreten',
  'join.prompt.private': 'Diese Gruppe ist privat oder existiert nicht mehr: Zum Beitreten braucht es eine Einladung.',
  'join.prompt.title': 'Dieser Gruppe beitreten?',
  'join.prompt.hint': 'Diese Gruppe ist nicht in deiner Liste. Ist sie öffentlich, kann jeder beitreten.',
  'join.prompt.joining': 'Trete bei…',
  'join.prompt.join': 'Der Gruppe beitreten',
  'join.link.label': 'Einladungslink',
  'join.link.code': 'Code',
  'join.link.expires': 'läuft ab {when}',
  'join.link.uses': '{count, plural, one {# Verwendung} other {# Verwendungen}}',
  'join.link.copy': 'Link kopieren',
  'join.inviteTitle': 'Leute zu {name} einladen',
  'join.creatingInvite': 'Einladung wird erstellt…',
};
