// /health and /ready for a node without the gateway (HEALTH_PORT), so an
// orchestrator can probe service nodes the way it probes gateways. Only the
// bare status is told: the detailed report stays the gateways' (operators only).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ImError, toHttpError, type Readiness } from '@im/sdk';

export interface HealthListener {
  /** The address it listens at, http://host:port. */
  url: string;
  /** From now on /ready answers 503: the node is draining. */
  drain(): void;
  close(): Promise<void>;
}

export async function startHealthListener(readiness: Readiness, host: string, port: number): Promise<HealthListener> {
  let draining = false;
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      const payload = JSON.stringify(body);
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(payload),
      });
      res.end(payload);
    };
    const path = (req.url ?? '/').split('?')[0];
    if ((path === '/health' || path === '/ready') && req.method !== 'GET' && req.method !== 'HEAD') {
      const { status, body } = toHttpError(new ImError('IM_ERR_METHOD_NOT_ALLOWED'));
      res.setHeader('allow', 'GET, HEAD');
      return send(status, body);
    }
    if (path === '/health') return send(200, { status: 'ok' });
    if (path === '/ready') {
      if (draining) return send(503, { status: 'unavailable' });
      void readiness.run().then(
        (report) => send(report.ready ? 200 : 503, { status: report.ready ? 'ready' : 'unavailable' }),
        () => send(503, { status: 'unavailable' }),
      );
      return;
    }
    const { status, body } = toHttpError(new ImError('IM_ERR_NOT_FOUND', 'This node answers /health and /ready only'));
    send(status, body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    drain: () => {
      draining = true;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
