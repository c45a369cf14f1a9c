import type { AppContext } from '@im/sdk';
import { sendJson, sendText } from '../http/respond.ts';
import type { Router } from '../http/router.ts';

/** /health (the process lives), /ready (its dependencies answer), /metrics (Prometheus text). */
export function registerHealthRoutes(router: Router, app: AppContext): void {
  router.on('GET', '/health', (_req, res) => {
    sendJson(res, 200, { status: 'ok' });
  });

  router.on('GET', '/ready', async (_req, res) => {
    const report = await app.readiness.run();
    if (report.ready) {
      sendJson(res, 200, { status: 'ready', checks: report.checks });
    } else {
      const failed = Object.entries(report.checks)
        .filter(([, result]) => result !== 'ok')
        .map(([name]) => name);
      sendJson(res, 503, { status: 'unavailable', failed, checks: report.checks });
    }
  });

  router.on('GET', '/metrics', async (_req, res) => {
    sendText(res, 200, await app.metrics.metrics(), app.metrics.contentType);
  });
}
