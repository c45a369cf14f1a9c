// Web-Push-Benachrichtigungen, wie der Service Worker sie zeigt.
export const push = {
  'push.title.dm': 'Neue Direktnachricht',
  'push.title.mention': 'Du wurdest erwähnt',
  'push.title.reply': 'Neue Antwort in einem Thread, dem du folgst',
  'push.title.reminder': 'Erinnerung',
  'push.title.message': 'Neue Nachricht',
  'push.body.reply': 'hat in einem Thread geantwortet, dem du folgst: {body}',
  'push.body.mention': 'hat dich erwähnt: {body}',
};
