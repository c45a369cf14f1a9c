import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isLoopback } from './loopback.ts';

/**
 * Who may read the internal endpoints (/metrics, the detailed /ready): with
 * METRICS_TOKEN set, requests bearing it; without, direct connections from
 * this host only (no proxy in between: a proxied request carries
 * X-Forwarded-For, and the shipped nginx does not pass these paths anyway).
 */
export function operatorAccess(metricsToken: string | undefined): (req: IncomingMessage) => boolean {
  if (metricsToken) {
    const expected = Buffer.from(`Bearer ${metricsToken}`);
    return (req) => {
      const given = Buffer.from(req.headers.authorization ?? '');
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
  }
  return (req) => isLoopback(req.socket.remoteAddress) && req.headers['x-forwarded-for'] === undefined;
}
