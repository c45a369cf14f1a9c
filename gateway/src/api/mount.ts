import type { AppContext, CallerMeta, TokenClaims } from '@im/sdk';
import { clientAddressOf } from '../http/client-address.ts';
import type { ServiceBroker } from 'moleculer';
import type { Authenticator } from '../auth/authenticator.ts';
import { readJsonBody, readQuery, readTextBody } from '../http/body.ts';
import { sendJson } from '../http/respond.ts';
import type { Router } from '../http/router.ts';
import { refuseOutsideBotScope } from '../auth/bot-scope.ts';
import { API_ENDPOINTS } from './endpoints.ts';
import { operationIdOf, type RawHandlers } from './raw-handlers.ts';

const callerUser = (caller: TokenClaims): NonNullable<CallerMeta['user']> => ({
  id: caller.userId,
  sessionId: caller.sessionId,
  ...(caller.botGroupId ? { botGroupId: caller.botGroupId } : {}),
});

/**
 * Mounts every endpoint of the table: a raw one with its handler from `raw`
 * (a page or feed for HEAD as well), any other as authenticate, gather
 * parameters, call the action, answer. A raw endpoint without a handler, or
 * a handler without an endpoint, stops the gateway here.
 */
export function mountApiRoutes(
  router: Router,
  app: AppContext,
  broker: ServiceBroker,
  auth: Authenticator,
  raw: RawHandlers,
): void {
  const clientIp = clientAddressOf(app.config.trustProxy);
  const unused = new Set(Object.keys(raw));

  for (const route of API_ENDPOINTS) {
    if (route.raw) {
      const id = operationIdOf(route);
      const handler = raw[id];
      if (!handler) throw new Error(`the raw endpoint ${route.method} ${route.path} (${id}) has no handler`);
      unused.delete(id);
      router.on(route.method, route.path, handler);
      if (route.raw === 'cached' && route.method === 'GET') router.on('HEAD', route.path, handler);
      continue;
    }
    router.on(route.method, route.path, async (req, res, pathParams) => {
      const caller = route.auth ? await auth.sessionFromRequest(req) : undefined;
      if (caller?.botGroupId) refuseOutsideBotScope(route, pathParams, caller.botGroupId);
      const input =
        route.input === 'body'
          ? await readJsonBody(req, app.config.bodyLimitBytes)
          : route.input === 'query'
            ? readQuery(req.url)
            : route.input === 'signed'
              ? {
                  body: await readTextBody(req, app.config.bodyLimitBytes),
                  authorization: req.headers.authorization ?? '',
                }
              : {};
      const params = { ...input, ...pathParams };
      const meta: CallerMeta = {
        ip: clientIp(req),
        ...(caller ? { user: callerUser(caller) } : {}),
        // Recorded with the session a login or registration opens.
        ...(route.auth ? {} : { userAgent: req.headers['user-agent'] ?? '' }),
      };
      const result = await broker.call(route.action, params, { meta });
      if (route.status === 204) {
        res.writeHead(204).end();
      } else if (route.accepted?.when(result)) {
        sendJson(res, 202, result);
      } else {
        sendJson(res, route.status, result);
      }
    });
  }
  if (unused.size > 0) throw new Error(`raw handlers with no endpoint in the table: ${[...unused].join(', ')}`);
}
