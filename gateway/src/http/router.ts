import type { IncomingMessage, ServerResponse } from 'node:http';
import findMyWay, { type HTTPVersion, type Instance } from 'find-my-way';
import { errorOf, sendError } from './respond.ts';
import type { HttpMetrics } from './metrics.ts';
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

  on(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, handler: RouteHandler): void {
    this.#router.on(method, path, (req, res, params) => this.#run(method, path, handler, req, res, params));
  }

  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    this.#router.lookup(req, res);
  };

  async #run(
    method: string,
    route: string,
    handler: RouteHandler,
    req: IncomingMessage,
    res: ServerResponse,
    params: Record<string, string | undefined>,
  ): Promise<void> {
    const started = process.hrtime.bigint();
    let status: number;
    try {
      await handler(req, res, params);
      status = res.statusCode;
    } catch (err) {
      const sent = sendError(res, err);
      status = sent.status;
      if (sent.internal) this.#logger.error({ err, method, route }, 'request failed');
    }
    this.#metrics.requests.inc({ method, route, status });
    this.#metrics.duration.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
  }
}
