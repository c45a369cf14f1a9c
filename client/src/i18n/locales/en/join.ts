// Messages of the app's join area.
export const join = {
  'join.gone': 'This invite cannot be used: it may have expired, been used up or revoked. Ask for a new one.',
  'join.invitedBy': '{name} invited you to join',
  'join.memberCount': '{count, plural, one {# member} other {# members}}',
  'join.title': 'Join {name}',
  'join.signup': 'Create an account to join',
  'join.join': 'Join {name}',
  'join.dialogTitle': 'Join a group',
  'join.codeLabel': 'Invite link or code',
  'join.joinButton': 'Join',
  'join.login': 'Log in to join',
};
