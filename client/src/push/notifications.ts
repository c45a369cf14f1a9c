import { plainText } from '@im/markdown';
import type { Message } from '@im/protocol';
import { ApiRequestError, describeError } from '../api/errors.ts';
import { api, type ParamsOf } from '../api/api.ts';
import { registerAppWorker } from '../offline/service-worker.ts';
import { t } from '../i18n/i18n.ts';

/** The browser types every field of a subscription's JSON optional; a live subscription has them all. */
const subscriptionBody = (subscription: PushSubscription) => subscription.toJSON() as ParamsOf<'push.subscribe'>;

export type PushState = 'unsupported' | 'default' | 'denied' | 'enabled';

const supported = (): boolean =>
  typeof window !== 'undefined' && 'Notification' in window && 'serviceWorker' in navigator && 'PushManager' in window;

export async function pushState(): Promise<PushState> {
  if (!supported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  if (Notification.permission !== 'granted') return 'default';
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  return subscription ? 'enabled' : 'default';
}

/** The VAPID key as the bytes PushManager.subscribe wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** A failure's reason as words for the user (the browser's own message, or the server's). */
const reasonOf = (err: unknown): string => (err instanceof Error && err.message ? err.message : describeError(err));

/**
 * Asks for permission, registers the service worker and a Web Push
 * subscription, and hands it to the server: notifications then arrive while
 * no tab is open. Answers a sentence for the user, which says which step
 * failed (permission, service worker, the browser's push service, the server).
 */
export async function enablePush(): Promise<string> {
  if (!supported()) return t('account.push.unsupported');
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return t('account.push.denied');
  if (permission !== 'granted') return t('account.push.dismissed');
  let registration: ServiceWorkerRegistration;
  try {
    registration = await registerAppWorker();
  } catch (err) {
    return t('account.push.noServiceWorker', { reason: reasonOf(err) });
  }
  let key: string;
  try {
    key = (await api.call('push.vapidPublicKey')).key;
  } catch (err) {
    return t('account.push.serverOff', { reason: describeError(err) });
  }
  const subscribe = () =>
    registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  let subscription: PushSubscription;
  try {
    subscription = (await registration.pushManager.getSubscription()) ?? (await subscribe());
  } catch (err) {
    return t('account.push.browserRefused', { reason: reasonOf(err) });
  }
  try {
    try {
      await api.call('push.subscribe', subscriptionBody(subscription));
    } catch (err) {
      // This browser's subscription is still another account's (signed out without turning
      // notifications off): the server will not move it, so this account gets a fresh one.
      if (!(err instanceof ApiRequestError && err.status === 409)) throw err;
      await subscription.unsubscribe();
      await api.call('push.subscribe', subscriptionBody(await subscribe()));
    }
  } catch (err) {
    return t('account.push.serverRefused', { reason: describeError(err) });
  }
  return t('account.push.on');
}

/** This browser's own Web Push subscription, if it has one. */
export async function thisBrowserSubscription(): Promise<PushSubscription | null> {
  if (!supported()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export async function disablePush(): Promise<void> {
  if (!supported()) return;
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  await api.call('push.unsubscribe', { endpoint: subscription.endpoint }).catch(() => undefined);
  await subscription.unsubscribe();
}

/**
 * The session ended here (signed out, or ended by the server, when the server
 * can no longer be told): this browser's push subscription is dropped, so the
 * push service refuses the server's next push for it, and the account's
 * notifications still shown are closed. Notifications then need turning on
 * again after the next sign-in.
 */
export async function forgetPushOnDevice(): Promise<void> {
  if (!supported()) return;
  try {
    const registration = await navigator.serviceWorker.getRegistration('/');
    if (!registration) return;
    for (const shown of await registration.getNotifications()) shown.close();
    await (await registration.pushManager.getSubscription())?.unsubscribe();
  } catch {
    // Nothing registered, or the browser refused: nothing of the account is kept then.
  }
}

/** Why a message is worth a notification: a DM, a mention of me, a reply in a thread I follow. */
/** message: any message of a converse at level `all`. */
export type NotifyReason = 'dm' | 'mention' | 'thread' | 'message';

/** While the tab is hidden the socket still delivers; the page shows the notification itself. */
export async function showMessageNotification(message: Message, title: string, why: NotifyReason): Promise<void> {
  if (!supported() || Notification.permission !== 'granted') return;
  const body = plainText(message.content, 140);
  const options: NotificationOptions = {
    body:
      why === 'dm' || why === 'message'
        ? body
        : why === 'thread'
          ? t('push.body.reply', { body })
          : t('push.body.mention', { body }),
    tag: `${message.converseId}:${message.seq}`,
    data: { converseId: message.converseId },
  };
  const registration = await navigator.serviceWorker.getRegistration('/');
  if (registration) await registration.showNotification(title, options);
  else new Notification(title, options);
}
