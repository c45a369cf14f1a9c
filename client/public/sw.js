// Service worker: shows Web Push notifications (mentions, DMs, thread replies,
// reminders, and every message of a converse at level "all", received while no
// tab was connected) and opens the conversation when one is clicked.

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let payload = {};
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    payload = {};
  }
  const titles = {
    dm: 'New direct message',
    mention: 'You were mentioned',
    reply: 'New reply in a thread you follow',
    reminder: 'Reminder',
    message: 'New message',
  };
  const title = titles[payload.type] || 'New message';
  const body = typeof payload.preview === 'string' ? payload.preview : '';
  event.waitUntil(
    self.registration.showNotification(title, {
      body,
      tag: payload.converseId && payload.seq ? `${payload.converseId}:${payload.seq}` : undefined,
      data: { converseId: payload.converseId },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const converseId = event.notification.data && event.notification.data.converseId;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        if (converseId) open.postMessage({ type: 'open-converse', converseId });
        return;
      }
      await self.clients.openWindow(converseId ? `/c/${encodeURIComponent(converseId)}` : '/');
    })(),
  );
});
