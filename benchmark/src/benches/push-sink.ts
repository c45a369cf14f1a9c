// The push benchmark's receiving end: a child process running a bare
// node:http server that stands in for a push service (Web Push: FCM,
// Mozilla's) or for the HTTP push proxy in front of APNs/FCM. It counts the
// POSTs, when the first and last completed, and per destination (a Web Push
// endpoint's path, a device's token), and checks that each looks like what
// the channel sends.
import type { IncomingMessage } from 'node:http';
import { serveReceiver } from '../lib/receiver.ts';

export type PushChannel = 'webpush' | 'proxy';

export interface SinkStats {
  count: number;
  /** Epoch ms (sub-ms precision) of the first and last complete request. */
  first: number;
  last: number;
  /** Requests that did not look like the channel's (encrypted and VAPID-signed; a device's JSON). */
  malformed: number;
  /** Arrivals per destination: the path (Web Push) or the device token (proxy). */
  perKey: Record<string, number>;
}

export type SinkCommand = { type: 'stats'; perKey?: boolean } | { type: 'reset'; channel: PushChannel };

/** A Web Push request as the server sends it: encrypted, VAPID-signed. */
const webPushShaped = (req: IncomingMessage, body: Buffer): boolean =>
  req.method === 'POST' &&
  body.length > 0 &&
  req.headers['content-encoding'] === 'aes128gcm' &&
  String(req.headers.authorization).startsWith('vapid t=');

/** A push proxy request: one device and the notification, as JSON. Its token, or undefined if malformed. */
function proxyToken(req: IncomingMessage, body: Buffer): string | undefined {
  if (req.method !== 'POST' || !String(req.headers['content-type']).startsWith('application/json')) return undefined;
  try {
    const doc = JSON.parse(body.toString('utf8')) as { token?: unknown; platform?: unknown; payload?: unknown };
    const payload = doc.payload as { messageId?: unknown } | undefined;
    if (typeof doc.token !== 'string' || typeof doc.platform !== 'string' || typeof payload?.messageId !== 'string')
      return undefined;
    return doc.token;
  } catch {
    return undefined;
  }
}

function runSink(): void {
  let channel: PushChannel = 'webpush';
  let count = 0;
  let first = 0;
  let last = 0;
  let malformed = 0;
  let perKey = new Map<string, number>();
  serveReceiver<SinkCommand, SinkStats>(
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const t = performance.timeOrigin + performance.now();
        if (count === 0) first = t;
        last = t;
        count += 1;
        const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        let key: string | undefined;
        if (channel === 'proxy') key = proxyToken(req, body);
        else key = webPushShaped(req, body) ? (req.url ?? '') : undefined;
        if (key === undefined) malformed += 1;
        else perKey.set(key, (perKey.get(key) ?? 0) + 1);
        res.writeHead(201).end();
      });
    },
    (m) => {
      // Connections are counted over the whole run: the warm-up opens the pool the burst reuses.
      if (m.type === 'reset') {
        channel = m.channel;
        count = malformed = 0;
        first = last = 0;
        perKey = new Map();
      }
      return {
        count,
        first,
        last,
        malformed,
        perKey: m.type === 'stats' && m.perKey ? Object.fromEntries(perKey) : {},
      };
    },
  );
}

if (import.meta.main && process.argv.includes('--sink')) runSink();
