import type { AppContext, ServiceFactory } from '@im/sdk';
import type { ImportDeps } from './deps.ts';
import { exportActions } from './export-actions.ts';
import { exportModels } from './export-models.ts';
import { failInterruptedExports } from './export/export-runner.ts';
import { importActions } from './import-actions.ts';
import { importModels } from './models.ts';

/**
 * Imports (Slack, Mattermost, Discord, this platform's own archives) and
 * exports (a group's, a person's): long jobs, run one at a time per node,
 * never while a request waits.
 */
export const createImportService: ServiceFactory = (app: AppContext) => {
  const models = { ...importModels(app.mongo!), ...exportModels(app.mongo!) };
  const deps: ImportDeps = { app, models, storage: app.storage! };
  return {
    name: 'import',
    async started() {
      await Promise.all(
        (Object.values(models) as Array<{ createIndexes(): Promise<unknown> }>).map((m) => m.createIndexes()),
      );
      await failInterruptedExports(models, this.broker.nodeID);
    },
    actions: { ...importActions(deps), ...exportActions(deps) },
  };
};
