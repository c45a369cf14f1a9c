import type { IncomingMessage } from 'node:http';
import type { AppContext } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import type { Authenticator } from '../auth/authenticator.ts';
import { readJsonBody, readQuery } from '../http/body.ts';
import { sendJson } from '../http/respond.ts';
import type { Router } from '../http/router.ts';
import { API_ENDPOINTS } from './endpoints.ts';

/** Mounts every API endpoint: authenticate, gather parameters, call the action, answer. */
export function mountApiRoutes(router: Router, app: AppContext, broker: ServiceBroker, auth: Authenticator): void {
  const clientIp = (req: IncomingMessage) => {
    if (app.config.trustProxy) {
      const forwarded = req.headers['x-forwarded-for'];
      const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
      if (first) return first;
    }
    return req.socket.remoteAddress ?? 'unknown';
  };

  for (const route of API_ENDPOINTS) {
    if (route.raw) continue;
    router.on(route.method, route.path, async (req, res, pathParams) => {
      const userId = route.auth ? await auth.fromRequest(req) : undefined;
      const input =
        route.input === 'body'
          ? await readJsonBody(req, app.config.bodyLimitBytes)
          : route.input === 'query'
            ? readQuery(req.url)
            : {};
      const params = { ...input, ...pathParams };
      const meta = { ip: clientIp(req), ...(userId ? { user: { id: userId } } : {}) };
      const result = await broker.call(route.action, params, { meta });
      if (route.status === 204) {
        res.writeHead(204).end();
      } else {
        sendJson(res, route.status, result);
      }
    });
  }
}
