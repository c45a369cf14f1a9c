// The app's service worker (src/sw/sw.ts, built to /sw.js): registered at
// every start of a built app, so the app shell is kept for offline starts;
// Web Push uses the same registration (push/notifications.ts).
import { useSyncExternalStore } from 'react';

export const WORKER_URL = '/sw.js';
const UPDATE_EVENT = 'im:app-update-ready';

/** A newer version took over while this page runs the old one: the page offers a reload. */
let updateReady = false;

/** Whether a newer version of the app is ready (it runs from the next load). */
export function useAppUpdateReady(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      window.addEventListener(UPDATE_EVENT, onChange);
      return () => window.removeEventListener(UPDATE_EVENT, onChange);
    },
    () => updateReady,
    () => false,
  );
}

const supported = () => typeof navigator !== 'undefined' && 'serviceWorker' in navigator;

/** Registers the worker (again: the browser keeps one per scope); resolves when it is active. */
export async function registerAppWorker(): Promise<ServiceWorkerRegistration> {
  const registration = await navigator.serviceWorker.register(WORKER_URL, { scope: '/' });
  await navigator.serviceWorker.ready;
  return registration;
}

/** At start-up of the built app: the worker, and an update notice when a new version takes over. */
export function startAppWorker(): void {
  // `vite` (development) serves no worker: the built app has one.
  if (!supported() || !import.meta.env.PROD) return;
  // A page loaded without a worker (the first visit) gets one now, which is no update.
  const hadController = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!hadController) return;
    updateReady = true;
    window.dispatchEvent(new Event(UPDATE_EVENT));
  });
  void registerAppWorker().catch(() => undefined);
}
