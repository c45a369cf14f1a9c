import type { status as en } from '../en/status.ts';

export const status: Record<keyof typeof en, string> = {
  'status.clear.never': 'Nicht löschen',
  'status.clear.30m': '30 Minuten',
  'status.clear.1h': '1 Stunde',
  'status.clear.4h': '4 Stunden',
  'status.clear.today': 'Heute',
  'status.custom.title': 'Eigenen Status festlegen',
  'status.custom.pick': 'Emoji auswählen',
  'status.custom.emoji': 'Emoji',
  'status.custom.emoji.placeholder': '🙂 oder :Kurzname:',
  'status.custom.text': 'Was ist los?',
  'status.custom.text.placeholder': 'In einer Besprechung',
  'status.custom.clearAfter': 'Löschen nach',
  'status.custom.save': 'Status speichern',
  'status.dnd.saved': 'Zeitplan gespeichert.',
  'status.dnd.off': 'Zeitplan ausgeschaltet.',
  'status.dnd.title': 'Zeitplan für „Nicht stören“',
  'status.dnd.hint':
    'In diesen Stunden keine Push-Nachrichten und keine Benachrichtigungen; Nachrichten warten weiter in deinem Posteingang.',
  'status.dnd.auto': '„Nicht stören“ automatisch einschalten',
  'status.dnd.from': 'Von',
  'status.dnd.to': 'Bis',
  'status.dnd.zone': 'Zeitzone',
  'status.dnd.days': 'Tage',
  'status.dnd.weekdays': 'Werktage',
  'status.dnd.apply': 'Zeitplan übernehmen',
};
