// The inbox, marking read and unread, and how long a mute lasts.
export const attention = {
  'attention.inbox': 'Inbox',
  'attention.inbox.unread': 'Inbox, {count, number} unread',
  'attention.markAllRead': 'Mark all read',
  'attention.inbox.empty': 'Nothing here: mentions, replies in your threads and reminders show up here.',
  'attention.why.mention': '{author} mentioned you',
  'attention.why.reply': '{author} replied in a thread you follow',
  'attention.why.reminder': 'Reminder',
  'attention.why.dm': '{author} sent you a message',
  'attention.markUnread': 'Mark as unread',
  'attention.markUnread.title': 'Mark as unread from here',
  'attention.markUnread.failed': 'Could not mark as unread: {reason}',
  'attention.markRead': 'Mark as read',
  'attention.markRead.label': 'Mark {name} as read',
  'attention.muteUntil': 'until {time}',
  'attention.muteUntilDay': 'until {day} {time}',
};
