import type { IncomingMessage, ServerResponse } from 'node:http';
import findMyWay, { type HTTPVersion, type Instance } from 'find-my-way';
import { errorOf, sendError } from './respond.ts';
import { RouteMetrics, type HttpMetrics } from './metrics.ts';
import type { Logger, Tracing } from '@im/sdk';

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The methods routes are declared with: what a 405's Allow header can name. */
const METHODS: readonly Method[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export type RouteHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  params: Record<string, string | undefined>,
) => Promise<void> | void;

/**
 * A thin router over node:http: finds the route, runs the handler, maps any
 * error to the catalog, records metrics, and with tracing on runs the
 * handler in a span named after the route. Nothing else sits on the hot path.
 */
export class Router {
  readonly #router: Instance<HTTPVersion.V1>;
  readonly #metrics: HttpMetrics;
  readonly #logger: Logger;
  readonly #tracing: Tracing | undefined;

  constructor(metrics: HttpMetrics, logger: Logger, tracing?: Tracing) {
    this.#metrics = metrics;
    this.#logger = logger;
    this.#tracing = tracing;
    this.#router = findMyWay({
      ignoreTrailingSlash: true,
      defaultRoute: (req, res) => this.noRoute(req, res),
    });
  }

  /** `traced: false` keeps a route out of traces (probes and scrapes, which would drown the requests). */
  on(method: Method, path: string, handler: RouteHandler, { traced = true }: { traced?: boolean } = {}): void {
    const metrics = new RouteMetrics(this.#metrics, method, path);
    const tracing = traced ? this.#tracing : undefined;
    this.#router.on(
      method,
      path,
      tracing
        ? (req, res, params) =>
            tracing.httpRequest(req, res, method, path, () =>
              this.#run(method, path, metrics, handler, req, res, params),
            )
        : (req, res, params) => this.#run(method, path, metrics, handler, req, res, params),
      // A catch-all route (the web client's) does not make every path "exist" for a 405.
      { catchAll: path.includes('*') },
    );
  }

  /**
   * No route serves this request: 405 with an Allow header when the path has
   * routes for other methods, else 404. Catch-all handlers (the web client's)
   * call it for server paths they do not serve.
   */
  readonly noRoute = (req: IncomingMessage, res: ServerResponse): void => {
    const allow = this.#allowed(req);
    if (allow.length > 0)
      sendError(res, errorOf('IM_ERR_METHOD_NOT_ALLOWED', `Allowed: ${allow.join(', ')}`), {
        allow: allow.join(', '),
      });
    else sendError(res, errorOf('IM_ERR_ROUTE_NOT_FOUND'));
  };

  /** The methods the request's path has a route for (catch-alls aside). */
  #allowed(req: IncomingMessage): Method[] {
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    return METHODS.filter((m) => {
      const found = this.#router.find(m, path);
      return found !== null && !(found.store as { catchAll?: boolean } | null)?.catchAll;
    });
  }

  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    this.#router.lookup(req, res);
  };

  #run(
    method: string,
    route: string,
    metrics: RouteMetrics,
    handler: RouteHandler,
    req: IncomingMessage,
    res: ServerResponse,
    params: Record<string, string | undefined>,
  ): void {
    const started = performance.now();
    let pending: Promise<void> | void;
    try {
      pending = handler(req, res, params);
    } catch (err) {
      this.#failed(method, route, metrics, res, started, err);
      return;
    }
    // A handler that answers at once (/health) costs no promise and no extra turn.
    if (pending instanceof Promise) {
      pending.then(
        () => metrics.record(res.statusCode, (performance.now() - started) / 1000),
        (err: unknown) => this.#failed(method, route, metrics, res, started, err),
      );
    } else {
      metrics.record(res.statusCode, (performance.now() - started) / 1000);
    }
  }

  #failed(
    method: string,
    route: string,
    metrics: RouteMetrics,
    res: ServerResponse,
    started: number,
    err: unknown,
  ): void {
    const sent = sendError(res, err);
    if (sent.internal) this.#logger.error({ err, method, route }, 'request failed');
    metrics.record(sent.status, (performance.now() - started) / 1000);
  }
}
