// Safety: blocking users, and the audit log.
export const safety = {
  'safety.block': 'Block',
  'safety.unblock': 'Unblock',
  'safety.blockedHint': 'Blocked: no DMs between you, and their messages are folded away. They are not told.',
  'safety.blockedMessage': 'Message from a blocked user.',
  'safety.showMessage': 'Show',
  'safety.blockedUsers.title': 'Blocked users',
  'safety.blockedUsers.none': 'You have not blocked anyone.',
  'safety.blockedUsers.someone': 'Someone',
  'safety.blockedUsers.since': '@{username} · blocked {at, date, medium}',
  'safety.audit.label': 'Audit log',
  'safety.audit.empty': 'Nothing recorded yet.',
  'safety.audit.loadMore': 'Load more',
  'safety.audit.someone': 'someone',
  'safety.audit.inGroup': 'in {group}',
};
