import type { IncomingMessage, ServerResponse } from 'node:http';
import { call, toHttpError, type AppContext, type CallerMeta, invalid } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import { clientAddressOf } from '../http/client-address.ts';
import type { RouteHandler, Router } from '../http/router.ts';
import { readQuery } from '../http/body.ts';

const START = '/api/auth/oidc/start';
const CALLBACK = '/api/auth/oidc/callback';
/** Holds the state of the sign-in this browser started: a callback in another browser does not match it. */
const STATE_COOKIE = 'im_oidc_state';
const PENDING_SEC = 600;
/** A Host header: a name or IPv4 address, or a bracketed IPv6 one, and a port. */
const HOST = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$/;

const queryOf = (url = ''): string => {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
};

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function redirect(res: ServerResponse, location: string, cookie?: string): void {
  res.writeHead(302, {
    location,
    'cache-control': 'no-store',
    ...(cookie ? { 'set-cookie': cookie } : {}),
  });
  res.end();
}

/**
 * Single sign-on's browser routes: GET /api/auth/oidc/start sends the
 * browser to the provider, GET /api/auth/oidc/callback brings it back into
 * the web client. They answer redirects, not JSON; the user service decides
 * where to (404 from it when OIDC is not configured).
 */
export function registerOidcRoutes(router: Router, app: AppContext, broker: ServiceBroker): void {
  const clientIp = clientAddressOf(app.config.trustProxy);
  const meta = (req: IncomingMessage): CallerMeta => ({
    ip: clientIp(req),
    userAgent: req.headers['user-agent'] ?? '',
  });

  /** Where the provider sends the browser back: PUBLIC_URL, else the origin this request was made to. */
  const callbackUrl = (req: IncomingMessage): string => {
    if (app.config.publicUrl) return `${app.config.publicUrl}${CALLBACK}`;
    const host = req.headers.host ?? '';
    if (!HOST.test(host)) throw invalid('The request has no usable Host header');
    // Behind a trusted proxy that ends TLS, the browser's scheme is the proxy's to say.
    const forwarded = app.config.trustProxy === false ? undefined : req.headers['x-forwarded-proto'];
    const scheme = typeof forwarded === 'string' && forwarded.split(',')[0]!.trim() === 'https' ? 'https' : 'http';
    return `${scheme}://${host}${CALLBACK}`;
  };

  const stateCookie = (redirectUri: string, state: string, maxAge: number): string =>
    [
      `${STATE_COOKIE}=${state}`,
      'Path=/api/auth/oidc',
      'HttpOnly',
      'SameSite=Lax',
      `Max-Age=${maxAge}`,
      ...(redirectUri.startsWith('https:') ? ['Secure'] : []),
    ].join('; ');

  /** A failure lands in the web client too, except "not configured", which is the API's 404. */
  const landing =
    (handler: RouteHandler): RouteHandler =>
    async (req, res, params) => {
      try {
        await handler(req, res, params);
      } catch (err) {
        const mapped = toHttpError(err);
        if (mapped.status === 404) throw err;
        if (mapped.internal) app.logger.error({ err }, 'single sign-on failed');
        redirect(res, `/login?oidcError=${mapped.status === 429 ? 'rate_limited' : 'failed'}`);
      }
    };

  router.on(
    'GET',
    START,
    landing(async (req, res) => {
      const redirectUri = callbackUrl(req);
      const { link } = readQuery(req.url);
      const { location, state } = await call(
        broker,
        'user.oidcStart',
        { redirectUri, ...(link ? { link } : {}) },
        { meta: meta(req) },
      );
      redirect(res, location, state ? stateCookie(redirectUri, state, PENDING_SEC) : undefined);
    }),
  );

  router.on(
    'GET',
    CALLBACK,
    landing(async (req, res) => {
      const redirectUri = callbackUrl(req);
      const boundState = cookieValue(req, STATE_COOKIE);
      const { location } = await call(
        broker,
        'user.oidcCallback',
        { redirectUri, query: queryOf(req.url), ...(boundState ? { boundState } : {}) },
        { meta: meta(req) },
      );
      // The state is used up either way.
      redirect(res, location, stateCookie(redirectUri, '', 0));
    }),
  );
}
