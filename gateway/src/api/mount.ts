import type { AppContext, CallerMeta, TokenClaims } from '@im/sdk';
import { clientAddressOf } from '../http/client-address.ts';
import type { ServiceBroker } from 'moleculer';
import type { Authenticator } from '../auth/authenticator.ts';
import { readJsonBody, readQuery, readTextBody } from '../http/body.ts';
import { sendJson } from '../http/respond.ts';
import type { Router } from '../http/router.ts';
import { refuseOutsideBotScope } from '../auth/bot-scope.ts';
import { API_ENDPOINTS } from './endpoints.ts';

const callerUser = (caller: TokenClaims): NonNullable<CallerMeta['user']> => ({
  id: caller.userId,
  sessionId: caller.sessionId,
  ...(caller.botGroupId ? { botGroupId: caller.botGroupId } : {}),
});

/** Mounts every API endpoint: authenticate, gather parameters, call the action, answer. */
export function mountApiRoutes(router: Router, app: AppContext, broker: ServiceBroker, auth: Authenticator): void {
  const clientIp = clientAddressOf(app.config.trustProxy);

  for (const route of API_ENDPOINTS) {
    if (route.raw) continue;
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
}
