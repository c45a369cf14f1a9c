import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENTS, SERVICE_NAMES, TokenService, type AppContext, type ServiceFactory } from '@im/sdk';
import type { Context, ServiceBroker } from 'moleculer';
import { mountApiRoutes } from './api/mount.ts';
import { buildOpenApi } from './api/openapi.ts';
import { API_ROUTES } from './api/routes.ts';
import { Authenticator } from './auth/authenticator.ts';
import { createHttpMetrics } from './http/metrics.ts';
import { Router } from './http/router.ts';
import { registerHealthRoutes } from './routes/health.ts';

/** Backend services the gateway forwards to: it is ready once the broker knows all of them. */
const BACKENDS = SERVICE_NAMES.filter((name) => name !== 'gateway');

/**
 * The public edge: HTTP API (and, later, socket.io) on HOST:PORT. It is a
 * moleculer service, so it calls other services through the broker and
 * receives their events wherever they run.
 */
export const createGatewayService: ServiceFactory = (app: AppContext) => {
  let server: Server | undefined;
  let auth: Authenticator | undefined;
  const openApi = JSON.stringify(buildOpenApi(API_ROUTES));
  return {
    name: 'gateway',
    methods: {
      /** Where the HTTP server listens (PORT=0 picks a free port). */
      address(): AddressInfo | undefined {
        const address = server?.address();
        return address && typeof address === 'object' ? address : undefined;
      },
    },
    events: {
      [EVENTS.userDeactivated]: (ctx: Context<{ userId: string }>) => auth?.deactivate(ctx.params.userId),
    },
    created() {
      const broker = (this as unknown as { broker: ServiceBroker }).broker;
      auth = new Authenticator(new TokenService(app.config.secret, app.config.tokenTtl), broker);
      app.readiness.add('services', async () => {
        const available = new Set(
          broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }).map((s) => s.name),
        );
        const missing = BACKENDS.filter((name) => !available.has(name));
        if (missing.length > 0) throw new Error(`not reachable: ${missing.join(', ')}`);
      });
    },
    async started() {
      const router = new Router(createHttpMetrics(app.metrics), app.logger);
      registerHealthRoutes(router, app);
      router.on('GET', '/api/openapi.json', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(openApi);
      });
      mountApiRoutes(router, app, (this as unknown as { broker: ServiceBroker }).broker, auth!);
      server = createServer({ keepAliveTimeout: 65_000 }, router.handle);
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(app.config.port, app.config.host, () => {
          server!.off('error', reject);
          resolve();
        });
      });
      const address = server.address() as AddressInfo;
      app.logger.info(`gateway listening on http://${address.address}:${address.port}`);
    },
    async stopped() {
      if (!server) return;
      const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
      server.closeIdleConnections();
      await closing;
      server = undefined;
    },
  };
};
