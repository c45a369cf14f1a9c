export const auth = {
  'app.unreachable': 'Der Server ist nicht erreichbar. Neuer Versuch läuft …',
  'connection.connecting': 'Verbinde …',
  'connection.reconnecting': 'Verbindung verloren. Verbinde erneut …',
  'connection.offline': 'Offline',
  'connection.displaced': 'Pausiert: Dieses Konto ist in zu vielen anderen Fenstern geöffnet.',
  'connection.useHere': 'Hier verwenden',
  'auth.logIn': 'Anmelden',
  'auth.welcome': 'Willkommen zurück',
  'auth.createAnAccount': 'Konto erstellen',
  'auth.createAccount': 'Konto erstellen',
  'auth.username': 'Benutzername',
  'auth.username.rule': '3–32 Buchstaben, Ziffern und _ . -',
  'auth.displayName': 'Anzeigename',
  'auth.optional': '(optional)',
  'auth.password': 'Passwort',
  'auth.passwordAgain': 'Passwort wiederholen',
  'auth.invite': 'Einladungslink oder -code',
  'auth.invite.hint': 'Dieser Server nimmt neue Konten nur mit einer Einladung in eine seiner Gruppen an.',
  'auth.forgotPassword': 'Passwort vergessen?',
  'auth.or': 'oder',
  'auth.registrationClosed':
    'Die Registrierung ist auf diesem Server geschlossen. Bestehende Konten können sich weiterhin anmelden.',
  'auth.haveAccount': 'Schon ein Konto?',
  'auth.newHere': 'Neu hier?',
  'auth.error.fields':
    'Prüfe die Felder: Benutzernamen haben 3–32 Zeichen aus a–z, 0–9, _ . - und Passwörter 8–128 Zeichen.',
  'auth.error.invite':
    'Diese Einladung kann nicht verwendet werden: Sie ist vielleicht abgelaufen, aufgebraucht oder widerrufen. Bitte um eine neue.',
  'auth.claim.title': 'Konto übernehmen',
  'auth.claim.noToken':
    'Diesem Link fehlt das Token: Öffne den vollständigen Link, den du erhalten hast, oder bitte die Serveradministration um einen neuen.',
  'auth.claim.intro':
    'Deine Nachrichten und Gruppen wurden aus einem anderen Chat übernommen. Wähle ein Passwort, um dich ab jetzt bei diesem Konto anzumelden.',
  'auth.claim.usernameRule':
    'Ein Benutzername hat 3 bis 32 Buchstaben, Ziffern, Punkte, Bindestriche oder Unterstriche.',
  'auth.claim.newUsername': 'Neuer Benutzername (optional)',
  'auth.claim.keepUsername': 'Den übernommenen behalten',
  'auth.claim.submit': 'Konto übernehmen',
  'auth.mailLink.noToken': 'Diesem Link fehlt das Token: Öffne den vollständigen Link aus der E-Mail.',
  'auth.openApp': 'App öffnen',
  'auth.goToLogIn': 'Zur Anmeldung',
  'auth.unsubscribe.title': 'E-Mail-Benachrichtigungen',
  'auth.unsubscribe.done':
    'E-Mails zu verpassten Nachrichten sind aus. Unter Einstellungen → E-Mail kannst du sie wieder einschalten.',
  'auth.unsubscribe.question': 'Keine E-Mails mehr zu verpassten Direktnachrichten und Erwähnungen?',
  'auth.unsubscribe.submit': 'Diese E-Mails abbestellen',
  'auth.verify.title': 'E-Mail-Adresse bestätigen',
  'auth.verify.failed': 'Adresse nicht bestätigt',
  'auth.verify.checking': 'Link wird geprüft …',
  'auth.verify.done':
    'Deine E-Mail-Adresse ist bestätigt. Sie kann jetzt Links zum Zurücksetzen des Passworts und Benachrichtigungen empfangen.',
  'auth.verify.askAgain': 'Fordere unter Einstellungen → E-Mail einen neuen Link an („Bestätigung erneut senden“).',
  'auth.sso.error.state':
    'Die Anmeldung hat zu lange gedauert oder wurde in einem anderen Browser oder Tab begonnen. Bitte versuche es erneut.',
  'auth.sso.error.expired':
    'Diese Verknüpfungsanfrage ist abgelaufen. Bitte versuche es erneut über deine Einstellungen.',
  'auth.sso.error.denied': 'Die Anmeldung wurde beim Identitätsanbieter abgebrochen.',
  'auth.sso.error.provider': 'Der Identitätsanbieter hat die Anmeldung nicht bestätigt. Bitte versuche es erneut.',
  'auth.sso.error.unavailable': 'Der Identitätsanbieter ist gerade nicht erreichbar. Bitte versuche es später erneut.',
  'auth.sso.error.no_account':
    'Für dein Konto beim Identitätsanbieter gibt es hier kein Konto. Melde dich mit deinem Passwort an und verknüpfe es in den Einstellungen, oder frage einen Administrator.',
  'auth.sso.error.deactivated': 'Dieses Konto wurde von einem Serveradministrator deaktiviert.',
  'auth.sso.error.rate_limited': 'Zu viele Anmeldeversuche. Bitte warte eine Minute und versuche es erneut.',
  'auth.sso.error.other': 'Die einmalige Anmeldung hat nicht funktioniert. Bitte versuche es erneut.',
  'auth.sso.error.signInFirst':
    'Melde dich zuerst bei diesem Server an und verknüpfe dann dein Konto erneut über die Einstellungen.',
  'auth.sso.error.incomplete': 'Die einmalige Anmeldung wurde nicht abgeschlossen: {reason}',
};
