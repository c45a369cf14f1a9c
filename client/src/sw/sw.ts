// The service worker: keeps the app shell (the built files) so the app opens
// with no network, and shows Web Push notifications (mentions, DMs, thread
// replies, reminders, and every message of a converse at level "all",
// received while no tab was connected), opening the converse on a click.
// API answers and /socket.io never go through a cache: they are the server's.
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { notificationOf, openTargetOf } from './push-display.ts';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
};

// A new version takes over at once; the page that runs the old one shows an update notice
// (src/offline/service-worker.ts), and the next load runs the new one.
void self.skipWaiting();
clientsClaim();

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/** Paths the server answers itself (see gateway/src/routes/web-client.ts): never the app shell. */
const SERVER_PATHS = /^\/(api|socket\.io|health|ready|metrics|p|feeds|hooks)(\/|$)/;

// Every other page address is a route of the app (/c/…, /g/…): the kept index.html.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [SERVER_PATHS] }));

self.addEventListener('push', (event) => {
  let payload: unknown = {};
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    payload = {};
  }
  const { title, options } = notificationOf(payload, self.navigator.languages);
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const { converseId, url } = openTargetOf(event.notification.data);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        if (converseId) open.postMessage({ type: 'open-converse', converseId });
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
