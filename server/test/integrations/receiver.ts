import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  at: number;
}

export type Responder = (req: Received, index: number) => { status: number; body?: unknown; delayMs?: number };

/**
 * A webhook or command receiver on loopback: records each request's headers
 * and exact body, and answers as `respond` says (200 with no body unless told).
 */
/** The receivers one test file starts, all closed by `closeAll` in its `after`. */
export function receiverPool() {
  const started: Array<{ close(): Promise<void> }> = [];
  return {
    start: async (...args: Parameters<typeof startReceiver>) => {
      const receiver = await startReceiver(...args);
      started.push(receiver);
      return receiver;
    },
    closeAll: async () => {
      for (const receiver of started.splice(0)) await receiver.close();
    },
  };
}

export async function startReceiver(respond: Responder = () => ({ status: 200 })) {
  const received: Received[] = [];
  let responder = respond;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(entry);
      const answer = responder(entry, received.length - 1);
      setTimeout(() => {
        if (answer.body === undefined) res.writeHead(answer.status).end();
        else res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Changes how the next requests are answered. */
    answer(next: Responder) {
      responder = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
