import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';
import { importJWK, jwtVerify } from 'jose';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/**
 * A push service on loopback, standing in for FCM/Mozilla's and a push proxy:
 * records every request, counts TCP connections, and answers what the test
 * says (200 by default).
 */
export class PushEndpoint {
  readonly received: Received[] = [];
  connections = 0;
  status: (req: IncomingMessage) => number = () => 201;
  readonly #server: Server;

  constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const status = this.status(req);
        if (status < 300)
          this.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(status).end();
      });
    });
    this.#server.on('connection', () => {
      this.connections += 1;
    });
  }

  /** Listens on `host` (another loopback address is another host: its own circuit, its own delivery slots). */
  async start(host = '127.0.0.1'): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, host, resolve));
    return `http://${host}:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** A browser's side of a Web Push subscription: its keys, and the means to read what it is sent. */
export function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    json: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
    decrypt: (body: Buffer): unknown =>
      JSON.parse(
        ece
          .decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth.toString('base64url') })
          .toString('utf8'),
      ),
  };
}

/** Checks the VAPID header of a push request: a valid ES256 JWT for the endpoint's origin, signed by key k. */
export async function verifyVapid(
  headers: IncomingMessage['headers'],
  endpointOrigin: string,
): Promise<{ sub: string; k: string }> {
  const match = /^vapid t=([^,]+), k=(\S+)$/.exec(String(headers.authorization));
  if (!match) throw new Error(`no VAPID authorization: ${String(headers.authorization)}`);
  const point = Buffer.from(match[2]!, 'base64url');
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
  };
  const { payload } = await jwtVerify(match[1]!, await importJWK(jwk, 'ES256'), { audience: endpointOrigin });
  return { sub: String(payload.sub), k: match[2]! };
}
