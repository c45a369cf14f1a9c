import type { AppContext, AuditLog } from '@im/sdk';
import type { ReportModel } from './models.ts';

export interface ModerationDeps {
  app: AppContext;
  reports: ReportModel;
  /** The audit log every service writes: read here, and written when a report is resolved. */
  audit: AuditLog;
}
