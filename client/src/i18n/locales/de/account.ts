import type { account as en } from '../en/account.ts';

export const account: Record<keyof typeof en, string> = {
  'account.email': 'E-Mail',
  'account.email.sent':
    'Wir haben einen Bestätigungslink an {email} geschickt. Öffne ihn, um die Adresse zu bestätigen.',
  'account.email.sentAgain': 'Wir haben den Bestätigungslink erneut an {email} geschickt.',
  'account.email.notify.saved': 'E-Mail-Benachrichtigungen gespeichert.',
  'account.email.off':
    'Auf diesem Server ist kein E-Mail-Versand eingerichtet: Adressen können nicht bestätigt werden, und es werden keine E-Mails verschickt.',
  'account.email.address': 'E-Mail-Adresse',
  'account.email.verified': 'Bestätigt',
  'account.email.notVerified': 'Nicht bestätigt',
  'account.email.resend': 'Bestätigung erneut senden',
  'account.email.change': 'Adresse ändern',
  'account.email.add': 'Adresse hinzufügen',
  'account.email.notify': 'Per E-Mail über verpasste Direktnachrichten und Erwähnungen benachrichtigen',
  'account.email.notify.off': 'Aus',
  'account.email.notify.10m': 'Nach 10 Minuten',
  'account.email.notify.1h': 'Nach 1 Stunde',
  'account.email.notify.daily': 'Tägliche Zusammenfassung',
  'account.email.onlyVerified': 'Diese E-Mails gehen nur an eine bestätigte Adresse.',
  'account.sso': 'Single Sign-on',
  'account.sso.linked': 'Dein Konto ist mit {name} verknüpft: Du kannst dich mit „{label}“ anmelden.',
  'account.sso.linkedNoPassword':
    'Dein Konto ist mit {name} verknüpft: Du kannst dich mit „{label}“ anmelden. Es hat kein Passwort.',
  'account.sso.offer': 'Verknüpfe dein {name}-Konto, um dich hier mit „{label}“ anzumelden.',
  'account.sso.link': '{name}-Konto verknüpfen',
  'account.feeds': 'Persönliche Feeds',
  'account.feeds.panel': '{group} › #{panel}',
  'account.feeds.dm': 'Direktnachrichten mit {name}',
  'account.feeds.hint':
    'Verfolge deine Unterhaltungen in einem Feedreader. Der Link funktioniert ohne Anmeldung, also kann jeder, der ihn hat, sie lesen: Behalte ihn für dich. Er wird nur einmal angezeigt; ein neuer Link widerruft den vorherigen sofort.',
  'account.feeds.replace': 'Feed-Link ersetzen',
  'account.feeds.create': 'Feed-Link erstellen',
  'account.feeds.nothing': 'Tritt einer Gruppe bei oder beginne eine Unterhaltung, um ihr hier zu folgen.',
  'account.feeds.converse': 'Unterhaltung',
  'account.feeds.openNow': '{label} (gerade geöffnet)',
  'account.feeds.link': 'Atom-Feed-Link',
  'account.storage': 'Dateien: {used} von {quota} belegt',
};
