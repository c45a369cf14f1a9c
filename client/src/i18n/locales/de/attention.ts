import type { attention as en } from '../en/attention.ts';

export const attention: Record<keyof typeof en, string> = {
  'attention.inbox': 'Posteingang',
  'attention.inbox.unread': 'Posteingang, {count, number} ungelesen',
  'attention.markAllRead': 'Alle als gelesen markieren',
  'attention.inbox.empty':
    'Hier ist nichts: Erwähnungen, Antworten in deinen Threads und Erinnerungen erscheinen hier.',
  'attention.why.mention': '{author} hat dich erwähnt',
  'attention.why.reply': '{author} hat in einem Thread geantwortet, dem du folgst',
  'attention.why.reminder': 'Erinnerung',
  'attention.why.dm': '{author} hat dir eine Nachricht geschickt',
  'attention.markUnread': 'Als ungelesen markieren',
  'attention.markUnread.title': 'Ab hier als ungelesen markieren',
  'attention.markUnread.failed': 'Konnte nicht als ungelesen markiert werden: {reason}',
  'attention.markRead': 'Als gelesen markieren',
  'attention.markRead.label': '{name} als gelesen markieren',
  'attention.muteUntil': 'bis {time}',
  'attention.muteUntilDay': 'bis {day} {time}',
};
