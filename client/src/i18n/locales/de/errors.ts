import type { errors as en } from '../en/errors.ts';

export const errors: Record<keyof typeof en, string> = {
  'errors.NETWORK': 'Der Server ist nicht erreichbar. Prüfe deine Verbindung.',
  'errors.IM_ERR_VALIDATION': 'Einige Eingaben sind ungültig.',
  'errors.IM_ERR_BAD_JSON': 'Die Anfrage konnte nicht gelesen werden.',
  'errors.IM_ERR_LINK_INVALID': 'Dieser Link ist ungültig.',
  'errors.IM_ERR_UNAUTHORIZED': 'Du bist abgemeldet. Melde dich erneut an.',
  'errors.IM_ERR_INVALID_CREDENTIALS': 'Falscher Benutzername oder falsches Passwort',
  'errors.IM_ERR_ACCOUNT_DEACTIVATED':
    'Dieses Konto wurde von der Serveradministration deaktiviert.',
  'errors.IM_ERR_FORBIDDEN': 'Dazu bist du nicht berechtigt.',
  'errors.IM_ERR_WRONG_PASSWORD': 'Das aktuelle Passwort ist falsch.',
  'errors.IM_ERR_NO_PASSWORD': 'Dieses Konto hat kein Passwort: Es meldet sich per Single Sign-on an.',
  'errors.IM_ERR_BANNED': 'Du bist aus dieser Gruppe gesperrt.',
  'errors.IM_ERR_MUTED': 'Du bist in dieser Gruppe vorübergehend stummgeschaltet.',
  'errors.IM_ERR_REGISTRATION_CLOSED': 'Die Registrierung ist auf diesem Server geschlossen.',
  'errors.IM_ERR_NOT_FOUND': 'Das gibt es nicht mehr, oder du kannst es nicht sehen.',
  'errors.IM_ERR_ROUTE_NOT_FOUND': 'Der Server kennt diese Anfrage nicht. Lade die Seite neu.',
  'errors.IM_ERR_METHOD_NOT_ALLOWED': 'Der Server kennt diese Anfrage nicht. Lade die Seite neu.',
  'errors.IM_ERR_CONFLICT': 'Das hat sich inzwischen geändert. Versuche es erneut.',
  'errors.IM_ERR_USERNAME_TAKEN': 'Dieser Benutzername ist vergeben.',
  'errors.IM_ERR_LIMIT': 'Ein Limit ist erreicht.',
  'errors.IM_ERR_LINK_EXPIRED': 'Dieser Link ist abgelaufen.',
  'errors.IM_ERR_LINK_USED': 'Dieser Link wurde bereits verwendet.',
  'errors.IM_ERR_PAYLOAD_TOO_LARGE': 'Das ist zu groß.',
  'errors.IM_ERR_QUOTA': 'Dein Speicherplatz ist aufgebraucht.',
  'errors.IM_ERR_UNSUPPORTED_MEDIA_TYPE': 'Dieser Dateityp wird nicht unterstützt.',
  'errors.IM_ERR_RANGE_NOT_SATISFIABLE': 'Dieser Teil der Datei existiert nicht.',
  'errors.IM_ERR_RATE_LIMITED': 'Zu viele Anfragen. Warte kurz und versuche es erneut.',
  'errors.IM_ERR_INTERNAL': 'Auf dem Server ist etwas schiefgegangen. Versuche es erneut.',
  'errors.IM_ERR_SERVICE_UNAVAILABLE':
    'Der Server ist ausgelastet oder teilweise ausgefallen. Versuche es gleich noch einmal.',
};
