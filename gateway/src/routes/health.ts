import type { AppContext } from '@im/sdk';
import { operatorAccess } from '../http/operator-access.ts';
import { errorOf, sendError, sendJson, sendText } from '../http/respond.ts';
import type { RouteHandler, Router } from '../http/router.ts';

/**
 * /health (the process lives), /ready (its dependencies answer; which ones
 * and why only for operators), /metrics (Prometheus text, operators only).
 */
export function registerHealthRoutes(router: Router, app: AppContext): void {
  const isOperator = operatorAccess(app.config.metricsToken);
  // Probes and scrapes make no traces: they come every few seconds and say nothing of a request's path.
  const get = (path: string, handler: RouteHandler) => router.on('GET', path, handler, { traced: false });

  get('/health', (_req, res) => {
    sendJson(res, 200, { status: 'ok' });
  });

  get('/ready', async (req, res) => {
    const report = await app.readiness.run();
    const detailed = isOperator(req);
    if (report.ready) {
      sendJson(res, 200, detailed ? { status: 'ready', checks: report.checks } : { status: 'ready' });
    } else {
      const failed = Object.entries(report.checks)
        .filter(([, result]) => result !== 'ok')
        .map(([name]) => name);
      sendJson(
        res,
        503,
        detailed ? { status: 'unavailable', failed, checks: report.checks } : { status: 'unavailable' },
      );
    }
  });

  get('/metrics', async (req, res) => {
    if (!isOperator(req)) {
      sendError(res, errorOf('IM_ERR_FORBIDDEN', 'Metrics are for operators: send METRICS_TOKEN as a bearer token'));
      return;
    }
    sendText(res, 200, await app.metrics.metrics(), app.metrics.contentType);
  });
}
