// The installable app: working offline, messages waiting to be sent, updates.
export const offline = {
  'offline.banner': 'Offline: showing the messages saved on this device',
  'offline.queued': 'Waiting for the connection',
  'offline.cancelSend': 'Cancel',
  'offline.updateReady': 'A new version of {app} is ready.',
  'offline.reload': 'Reload',
};
