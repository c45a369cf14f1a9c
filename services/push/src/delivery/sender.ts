import webPush from 'web-push';
import type { VapidKeys } from '../vapid.ts';
import { InvalidSubscriptionKeys } from './encrypt.ts';
import type { Encryptor } from './encrypt-pool.ts';
import { OutboundRefusedError, type CircuitBreaker, type Outcome } from '@im/sdk';
import type { pushPoster } from './http-client.ts';
import type { PushJob, WebPushTarget } from './push-job.ts';

const MAX_ATTEMPTS = 10;
/** How long a push service keeps a notification (the TTL header); past it, a job still waiting is dropped. */
const TTL_SEC = 3600;
/** VAPID tokens may live up to 24 h; 12 h leaves room for clock skew. */
const VAPID_TOKEN_SEC = 12 * 3600;
const backoff = (attempts: number) => Math.min(30_000, 250 * 2 ** attempts) * (0.75 + Math.random() * 0.5);

export interface SendHooks {
  sent(channel: string, latencyMs: number): void;
  failed(channel: string, reason: string): void;
  retried(channel: string): void;
  /** A Web Push subscription the push service says is gone (404/410). */
  gone(endpoint: string): void;
  /** A Web Push delivery that failed (no answer, or an error status other than 404/410). */
  failing(endpoint: string): void;
  /** A Web Push delivery that succeeded after its subscription or this job had failed. */
  recovered(endpoint: string): void;
}

/** What the push proxy is sent for one device: its own fields, then the notification (JSON text already). */
const proxyBody = (target: { platform: string; token: string }, payload: string): string =>
  `{"platform":${JSON.stringify(target.platform)},"token":${JSON.stringify(target.token)},"payload":${payload}}`;
const PROXY_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

/** Sends one notification over the shared pooled client and says what to do next. */
export function createSender(
  vapid: VapidKeys,
  proxyUrl: string | undefined,
  breaker: CircuitBreaker,
  hooks: SendHooks,
  post: ReturnType<typeof pushPoster>,
  encryptor: Pick<Encryptor, 'encrypt'>,
) {
  // Parsed once: every mobile notification goes to this one address.
  const proxy = proxyUrl ? new URL(proxyUrl) : undefined;
  // An ES256 signature per notification is wasted work: a VAPID token names only the
  // push service's origin, so one token per origin is reused until an hour before it expires.
  const tokens = new Map<string, { header: string; renewAt: number }>();
  const vapidAuthorization = (origin: string): string => {
    const cached = tokens.get(origin);
    if (cached && cached.renewAt > Date.now()) return cached.header;
    const expiresAt = Math.floor(Date.now() / 1000) + VAPID_TOKEN_SEC;
    const { Authorization } = webPush.getVapidHeaders(
      origin,
      vapid.subject,
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
      expiresAt,
    );
    tokens.set(origin, { header: Authorization, renewAt: (expiresAt - 3600) * 1000 });
    return Authorization;
  };
  return async ({ data: job, attempts, enqueuedAt }: PushJob): Promise<Outcome> => {
    const webpush = job.channel === 'webpush' ? (job.target as WebPushTarget) : null;
    if (!webpush && !proxy) return { done: true };
    const url = webpush ? new URL(webpush.endpoint) : proxy!;
    const origin = url.origin;
    // Jobs held by an open circuit do not count attempts: the age bounds them instead, so a
    // destination that keeps failing is given up on rather than tried for ever.
    if (Date.now() - enqueuedAt > TTL_SEC * 1000) {
      hooks.failed(job.channel, 'expired');
      return { done: true };
    }
    // An open circuit holds the job before any work is spent on it.
    const wait = breaker.waitFor(origin);
    if (wait > 0) return { retryInMs: wait, countAttempt: false };

    let headers: Record<string, string>;
    let body: Buffer | string;
    if (webpush) {
      try {
        body = await encryptor.encrypt(webpush.p256dh, webpush.auth, job.payload);
      } catch (err) {
        if (!(err instanceof InvalidSubscriptionKeys)) throw err;
        // No attempt can ever succeed: drop it instead of retrying.
        hooks.failed(job.channel, 'invalid-keys');
        return { done: true };
      }
      // The headers web-push sends for aes128gcm; the VAPID header is signed once per push service.
      headers = {
        TTL: String(TTL_SEC),
        'Content-Length': String(body.length),
        'Content-Type': 'application/octet-stream',
        'Content-Encoding': 'aes128gcm',
        Authorization: vapidAuthorization(origin),
        Urgency: 'high',
      };
    } else {
      headers = PROXY_HEADERS;
      body = proxyBody(job.target as { platform: string; token: string }, job.payload);
    }

    const started = performance.now();
    let status = 0;
    try {
      status = await post(url, headers, body);
    } catch (err) {
      // A destination the outbound guard refuses is dropped: no attempt can ever be allowed.
      if (err instanceof OutboundRefusedError) {
        hooks.failed(job.channel, 'refused');
        return { done: true };
      }
      status = 0;
    }
    if (status >= 200 && status < 300) {
      breaker.success(origin);
      hooks.sent(job.channel, performance.now() - started);
      // Only a delivery that may follow a failure writes: the usual one costs nothing more.
      if (webpush && (webpush.failing || attempts > 0)) hooks.recovered(webpush.endpoint);
      return { done: true };
    }
    if (job.channel === 'webpush' && (status === 404 || status === 410)) {
      breaker.success(origin);
      hooks.gone((job.target as { endpoint: string }).endpoint);
      hooks.failed(job.channel, 'gone');
      return { done: true };
    }
    // Any other failure counts towards the subscription's removal (SUBSCRIPTION_GIVE_UP_AFTER_MS).
    if (webpush) hooks.failing(webpush.endpoint);
    if (status === 0 || status === 429 || status >= 500) {
      breaker.failure(origin);
      if (attempts + 1 >= MAX_ATTEMPTS) {
        hooks.failed(job.channel, 'gave-up');
        return { done: true };
      }
      hooks.retried(job.channel);
      return { retryInMs: backoff(attempts), countAttempt: true };
    }
    hooks.failed(job.channel, `http-${status}`);
    return { done: true };
  };
}
