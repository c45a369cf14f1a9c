import { AuditLog, type AppContext, type ServiceFactory, defineActions } from '@im/sdk';
import { auditActions } from './audit-actions.ts';
import { reportModel } from './models.ts';
import { reportActions } from './report-actions.ts';

/** Reports of messages and their queue, and the audit log's reading side. */
export const createModerationService: ServiceFactory = (app: AppContext) => {
  const deps = { app, reports: reportModel(app.mongo!), audit: new AuditLog(app.mongo!) };
  return {
    name: 'moderation',
    async started() {
      await Promise.all([deps.reports.createIndexes(), deps.audit.createIndexes()]);
    },
    actions: defineActions('moderation', { ...reportActions(deps), ...auditActions(deps) }),
  };
};
