// Reports of messages, for moderators and server admins.
export const moderation = {
  'moderation.reports': 'Open reports',
  'moderation.reports.loading': 'Loading reports…',
  'moderation.reports.none': 'No open reports.',
  'moderation.deletedAccount': 'A deleted account',
  'moderation.report.by': 'Report by {reporter}',
  'moderation.report.line': '{reporter} reported a message by {author}',
  'moderation.report.reason': 'Reason:',
  'moderation.report.dismiss': 'Dismiss',
  'moderation.report.delete': 'Delete message',
};
