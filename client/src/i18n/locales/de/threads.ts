import type { threads as en } from '../en/threads.ts';

export const threads: Record<keyof typeof en, string> = {
  'threads.replies': '{count, plural, one {# Antwort} other {# Antworten}}',
  'threads.lastReply': 'letzte Antwort',
  'threads.title': 'Threads',
  'threads.buttonUnread': '{count, plural, one {Threads, # ungelesen} other {Threads, # ungelesen}}',
  'threads.none': 'Noch keine Threads. Antworte in einem Thread, um ihm zu folgen.',
  'threads.deletedRoot': 'Gelöschte Nachricht',
  'threads.pins': 'Angeheftete Nachrichten',
  'threads.noPins': 'Hier ist noch nichts angeheftet.',
  'threads.thread': 'Thread',
  'threads.close': 'Thread schließen',
  'threads.replyLabel': 'Im Thread antworten',
  'threads.replyPlaceholder': 'Antworten…',
};
