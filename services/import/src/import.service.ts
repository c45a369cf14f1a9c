import { defineActions, type AppContext, type ServiceFactory } from '@im/sdk';
import { AnnouncePoller } from './announce/announce-poller.ts';
import type { ImportDeps } from './deps.ts';
import { exportActions } from './export-actions.ts';
import { exportModels } from './export-models.ts';
import { failInterruptedExports, failStaleExports } from './export/export-runner.ts';
import { importActions } from './import-actions.ts';
import { failStaleJobs, ImportRunner } from './import-runner.ts';
import { importModels } from './models.ts';

/**
 * Imports (Slack, Mattermost, Discord, this platform's own archives) and
 * exports (a group's, a person's): long jobs, run one at a time per node,
 * never while a request waits. It also takes in what command-line imports
 * wrote (AnnouncePoller).
 */
export const createImportService: ServiceFactory = (app: AppContext) => {
  const models = { ...importModels(app.mongo!), ...exportModels(app.mongo!) };
  const deps: ImportDeps = { app, models, storage: app.storage! };
  let runner: ImportRunner | undefined;
  let poller: AnnouncePoller | undefined;
  let staleTimer: NodeJS.Timeout | undefined;
  return {
    name: 'import',
    async started() {
      await Promise.all(
        (Object.values(models) as Array<{ createIndexes(): Promise<unknown> }>).map((m) => m.createIndexes()),
      );
      await failInterruptedExports(models, this.broker.nodeID);
      runner = new ImportRunner({
        models,
        db: () => app.mongo!.db!,
        storage: deps.storage,
        caller: () => this.broker,
        logger: app.logger,
      });
      await failStaleJobs(models);
      await failStaleExports(models);
      staleTimer = setInterval(() => {
        void failStaleJobs(models).catch(() => undefined);
        void failStaleExports(models).catch(() => undefined);
      }, 60_000);
      staleTimer.unref();
      poller = new AnnouncePoller(models, this.broker, app.logger, app.config.importAnnouncePollMs);
      poller.start();
    },
    stopped() {
      // A job running now is not waited for (it may take an hour): it is seen as stopped and failed later.
      poller?.stop();
      clearInterval(staleTimer);
    },
    actions: defineActions('import', { ...importActions(deps, () => runner!), ...exportActions(deps) }),
  };
};
