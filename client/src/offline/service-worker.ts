// The app's service worker (src/sw/sw.ts, built to /sw.js): registered at
// every start of a built app, so the app shell is kept for offline starts;
// Web Push uses the same registration (push/notifications.ts).
import { create } from 'zustand';

export const WORKER_URL = '/sw.js';

/** A newer version took over while this page runs the old one: the page offers a reload. */
export const useAppUpdate = create<{ ready: boolean }>(() => ({ ready: false }));

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
    if (hadController) useAppUpdate.setState({ ready: true });
  });
  void registerAppWorker().catch(() => undefined);
}
