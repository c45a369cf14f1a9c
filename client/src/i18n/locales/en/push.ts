// Web Push notifications, as the service worker shows them.
export const push = {
  'push.title.dm': 'New direct message',
  'push.title.mention': 'You were mentioned',
  'push.title.reply': 'New reply in a thread you follow',
  'push.title.reminder': 'Reminder',
  'push.title.message': 'New message',
  'push.body.reply': 'replied in a thread you follow: {body}',
  'push.body.mention': 'mentioned you: {body}',
};
