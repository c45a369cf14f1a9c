import type { OutboundGuard } from '@im/sdk';

/**
 * POSTs through the outbound guard's pool (keep-alive connections per
 * origin, each checked when it opened) and resolves with the answer's status
 * once the answer is over; its body, which push services leave empty or
 * nearly, is dropped. Rejects with OutboundRefusedError for a destination
 * the guard refuses, else on a network error or timeout.
 */
export const pushPoster =
  (guard: OutboundGuard) =>
  async (url: URL, headers: Record<string, string>, body: Buffer | string): Promise<number> =>
    (await guard.request(url, { method: 'POST', headers, body, maxBytes: 0 })).status;
