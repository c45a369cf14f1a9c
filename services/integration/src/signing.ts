import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A secret as hooks and commands get them: 32 random bytes, base64url (43 characters). */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** `sha256=<hex>`: HMAC-SHA256 of the exact bytes sent, keyed with the hook's or command's secret. */
const signatureOf = (secret: string, rawBody: string): string =>
  `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;

/** The headers of a signed request: the receiver checks the signature, the time and the id. */
export const signedHeaders = (secret: string, rawBody: string, timestamp: number, deliveryId: string) => ({
  'content-type': 'application/json',
  'user-agent': 'im-platform-webhooks',
  'x-im-signature': signatureOf(secret, rawBody),
  'x-im-timestamp': String(timestamp),
  'x-im-delivery': deliveryId,
});

/** Compares secrets in constant time (a hook URL's secret is its only credential). */
export const sameSecret = (given: string, stored: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
};
