// Messages of the app's threads area.
export const threads = {
  'threads.replies': '{count, plural, one {# reply} other {# replies}}',
  'threads.lastReply': 'last reply',
  'threads.title': 'Threads',
  'threads.buttonUnread': '{count, plural, one {Threads, # unread} other {Threads, # unread}}',
  'threads.none': 'No threads yet. Reply in a thread to follow it.',
  'threads.deletedRoot': 'Deleted message',
  'threads.pins': 'Pinned messages',
  'threads.noPins': 'Nothing is pinned here yet.',
  'threads.thread': 'Thread',
  'threads.close': 'Close thread',
  'threads.replyLabel': 'Reply in thread',
  'threads.replyPlaceholder': 'Reply…',
};
