// Service worker: shows Web Push notifications (mentions and DMs received while
// no tab was connected) and opens the conversation when one is clicked.

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let payload = {};
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    payload = {};
  }
  const title =
    payload.type === 'dm' ? 'New direct message' : payload.type === 'reminder' ? 'Reminder' : 'You were mentioned';
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
