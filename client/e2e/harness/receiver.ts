import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got: its path, headers and exact body. */
export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
}

/** What a receiver answers: a status (200 unless given) and a JSON body. */
export interface Reply {
  status?: number;
  body?: unknown;
}

/**
 * An HTTP endpoint on loopback standing in for a program the platform calls
 * (an outgoing webhook's or a slash command's server): it records every
 * request and answers `reply(request)` as JSON (which may take its time).
 * The platform reaches it only with OUTBOUND_ALLOW covering 127.0.0.1.
 */
export async function startReceiver(reply: (req: Received) => Reply | Promise<Reply> = () => ({})) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const got = { path: req.url ?? '/', headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') };
      received.push(got);
      const { status = 200, body = {} } = await reply(got);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
