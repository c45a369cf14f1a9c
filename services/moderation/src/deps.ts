import type { AppContext, AuditDoc, CallerMeta } from '@im/sdk';
import type { Context } from 'moleculer';
import type { Model } from 'mongoose';
import type { ReportModel } from './models.ts';

export interface ModerationDeps {
  app: AppContext;
  reports: ReportModel;
  /** The audit log every service writes (sdk AuditLog); read here. */
  auditEntries: Model<AuditDoc>;
}

export type Ctx<P = Record<string, never>> = Context<P, CallerMeta>;
