/**
 * When the web client tries its socket again. After a gateway restart every
 * open tab reconnects at once; spreading them out is what keeps that from
 * becoming a storm: socket.io's own retries double from 1 s up to 10 s, each
 * delay ±50% at random, and a handshake the server refused is tried again
 * after the delay the server named, or after a random part of the backoff.
 */
export const RECONNECT = { delayMs: 1_000, delayMaxMs: 10_000, randomization: 0.5 } as const;

/** What a refused handshake carries (`connect_error`'s `data`). */
export interface HandshakeRefusal {
  code?: string;
  retryAfterMs?: number;
}

/**
 * The wait before trying again after the `attempt`-th refusal in a row
 * (1, 2, ...): the server's `retryAfterMs` (already random per client) when
 * it gave one, else "full jitter" over the doubling backoff.
 */
export function refusedRetryDelayMs(attempt: number, refusal: HandshakeRefusal, random = Math.random): number {
  const hinted = refusal.retryAfterMs;
  if (typeof hinted === 'number' && Number.isFinite(hinted) && hinted > 0)
    return Math.min(hinted, RECONNECT.delayMaxMs);
  const ceiling = Math.min(RECONNECT.delayMs * 2 ** Math.max(attempt - 1, 0), RECONNECT.delayMaxMs);
  return Math.round(RECONNECT.delayMs / 2 + random() * ceiling);
}

/** A wait of `baseMs` ±50%: for retries that many clients start at the same moment. */
export const jittered = (baseMs: number, random = Math.random) => Math.round(baseMs * (0.5 + random()));
