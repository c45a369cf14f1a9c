import type { IncomingMessage, ServerResponse } from 'node:http';
import findMyWay, { type HTTPVersion, type Instance } from 'find-my-way';
import { errorOf, sendError } from './respond.ts';
import { RouteMetrics, type HttpMetrics } from './metrics.ts';
import type { Logger } from '@im/sdk';

export type RouteHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  params: Record<string, string | undefined>,
) => Promise<void> | void;

/**
 * A thin router over node:http: finds the route, runs the handler, maps any
 * error to the catalog, records metrics. Nothing else sits on the hot path.
 */
export class Router {
  readonly #router: Instance<HTTPVersion.V1>;
  readonly #metrics: HttpMetrics;
  readonly #logger: Logger;

  constructor(metrics: HttpMetrics, logger: Logger) {
    this.#metrics = metrics;
    this.#logger = logger;
    this.#router = findMyWay({
      ignoreTrailingSlash: true,
      defaultRoute: (_req, res) => {
        sendError(res, errorOf('IM_ERR_ROUTE_NOT_FOUND'));
      },
    });
  }

  on(method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, handler: RouteHandler): void {
    const metrics = new RouteMetrics(this.#metrics, method, path);
    this.#router.on(method, path, (req, res, params) => this.#run(method, path, metrics, handler, req, res, params));
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
