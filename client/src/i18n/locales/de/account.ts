// Mein Konto: Passwort, Sitzungen, Benachrichtigungen in diesem Browser, vergessenes Passwort, Konto löschen.
import type { account as english } from '../en/account.ts';

export const account: Record<keyof typeof english, string> = {
  'account.password.title': 'Passwort ändern',
  'account.password.current': 'Aktuelles Passwort',
  'account.password.new': 'Neues Passwort',
  'account.password.newAgain': 'Neues Passwort wiederholen',
  'account.password.submit': 'Passwort ändern',
  'account.password.changed': 'Passwort geändert. Deine anderen Sitzungen wurden abgemeldet.',
  'account.password.tooShort': 'Das Passwort braucht mindestens {min, number} Zeichen.',
  'account.password.differ': 'Die beiden Passwörter stimmen nicht überein.',
  'account.sessions.title': 'Sitzungen',
  'account.sessions.loading': 'Sitzungen werden geladen …',
  'account.sessions.agent': '{browser} unter {os}',
  'account.sessions.unknownClient': 'Unbekanntes Programm',
  'account.sessions.details':
    '{ip} · angemeldet am {signedIn, date, medium} um {signedIn, time, short} · zuletzt aktiv am {lastSeen, date, medium} um {lastSeen, time, short}',
  'account.sessions.thisBrowser': 'Dieser Browser',
  'account.sessions.signOut': 'Abmelden',
  'account.sessions.logOutEverywhere': 'Überall abmelden',
  'account.push.unsupported': 'Dieser Browser kann keine Benachrichtigungen anzeigen.',
  'account.push.denied':
    'Benachrichtigungen sind für diese Seite blockiert. Erlaube sie in den Website-Einstellungen des Browsers und versuche es erneut.',
  'account.push.dismissed':
    'Benachrichtigungen wurden nicht erlaubt: Die Abfrage des Browsers wurde geschlossen. Versuche es erneut und wähle „Erlauben“.',
  'account.push.noServiceWorker':
    'Benachrichtigungen konnten nicht eingeschaltet werden: Der Service Worker der App ist nicht gestartet ({reason}).',
  'account.push.serverOff': 'Dieser Server verschickt keine Benachrichtigungen: {reason}',
  'account.push.browserRefused': 'Der Push-Dienst des Browsers hat das Abonnement abgelehnt: {reason}',
  'account.push.serverRefused': 'Der Server hat das Abonnement dieses Browsers abgelehnt: {reason}',
  'account.push.on': 'Benachrichtigungen sind eingeschaltet.',
  'account.push.browsers':
    'Browser, die deine Benachrichtigungen erhalten (höchstens {max, number}; ein neuer ersetzt den ältesten):',
  'account.push.since': 'seit {at, date, medium}, {at, time, short}',
  'account.push.remove': 'Entfernen',
  'account.forgot.hint':
    'Gib deinen Benutzernamen oder die E-Mail-Adresse deines Kontos ein, und wir schicken dir einen Link.',
  'account.forgot.who': 'Benutzername oder E-Mail',
  'account.forgot.submit': 'Link zum Zurücksetzen senden',
  'account.forgot.sent':
    'Falls ein Konto passt, haben wir einen Link an seine E-Mail-Adresse geschickt. Der Link gilt eine Stunde; sieh auch im Spam-Ordner nach.',
  'account.reset.title': 'Passwort zurücksetzen',
  'account.reset.noToken':
    'Diesem Link fehlt das Token: Öffne den vollständigen Link aus der E-Mail oder fordere einen neuen an.',
  'account.reset.goToLogIn': 'Zur Anmeldung',
  'account.reset.changed': 'Passwort geändert',
  'account.reset.done':
    'Das neue Passwort ist gesetzt, und alle Sitzungen des Kontos wurden abgemeldet.{signedIn, select, yes {} other { Melde dich jetzt damit an.}}',
  'account.reset.openApp': 'App öffnen',
  'account.reset.logIn': 'Anmelden',
  'account.reset.choose': 'Neues Passwort wählen',
  'account.reset.rules': '{min, number} bis {max, number} Zeichen. Alle Sitzungen des Kontos werden abgemeldet.',
  'account.reset.submit': 'Neues Passwort setzen',
  'account.reset.backToLogIn': 'Zurück zur Anmeldung',
  'account.delete.title': 'Mein Konto löschen',
  'account.delete.hint':
    'Du verlässt alle Gruppen (eine Gruppe, die dir gehört, geht an einen Admin über oder wird gelöscht, wenn sie keinen hat), deine Sitzungen enden und dein Benutzername bleibt reserviert. Deine Nachrichten bleiben unter „Gelöschter Benutzer“ erhalten. Das lässt sich nicht rückgängig machen.',
  'account.delete.start': 'Mein Konto löschen …',
  'account.delete.password': 'Dein Passwort',
  'account.delete.typeUsername': 'Gib zur Bestätigung deinen Benutzernamen ({username}) ein',
  'account.delete.continue': 'Mein Konto löschen',
  'account.delete.confirmTitle': 'Konto löschen?',
  'account.delete.confirm': 'Dein Konto endgültig löschen? Du wirst hier und überall abgemeldet.',
  'account.delete.confirmButton': 'Ja, mein Konto löschen',
  'account.delete.done': 'Dein Konto wurde gelöscht. Du kannst mit einem anderen Benutzernamen ein neues anlegen.',
};
