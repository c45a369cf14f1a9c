import type { AppContext, AuditLog, CallerMeta } from '@im/sdk';
import type { Context } from 'moleculer';
import type { ReportModel } from './models.ts';

export interface ModerationDeps {
  app: AppContext;
  reports: ReportModel;
  /** The audit log every service writes: read here, and written when a report is resolved. */
  audit: AuditLog;
}

export type Ctx<P = Record<string, never>> = Context<P, CallerMeta>;
