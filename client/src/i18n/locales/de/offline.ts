// Die installierbare App: offline arbeiten, wartende Nachrichten, Updates.
export const offline = {
  'offline.banner': 'Offline: Es werden die auf diesem Gerät gespeicherten Nachrichten angezeigt',
  'offline.queued': 'Wartet auf die Verbindung',
  'offline.cancelSend': 'Abbrechen',
  'offline.updateReady': 'Eine neue Version von {app} ist bereit.',
  'offline.reload': 'Neu laden',
};
