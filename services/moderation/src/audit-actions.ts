import type { AuditPage } from '@im/protocol';
import type { Params } from '@im/sdk';
import { requireGroupPermission, requireServerAdmin } from './authority.ts';
import type { Ctx, ModerationDeps } from './deps.ts';
import { moderationParams } from './params.ts';

/** Reading the audit log, newest first (the services that make changes write it). */
export const auditActions = ({ audit }: ModerationDeps) => ({
  /** Everything, for server admins. */
  audit: {
    params: moderationParams.audit,
    async handler(ctx: Ctx<Params<typeof moderationParams.audit>>): Promise<AuditPage> {
      await requireServerAdmin(ctx);
      return audit.page({}, ctx.params.cursor, ctx.params.limit ?? 50);
    },
  },

  /** One group's entries, for holders of viewAuditLog (owner and admins hold it). */
  groupAudit: {
    params: moderationParams.groupAudit,
    async handler(ctx: Ctx<Params<typeof moderationParams.groupAudit>>): Promise<AuditPage> {
      await requireGroupPermission(ctx, ctx.params.groupId, 'viewAuditLog');
      return audit.page({ groupId: ctx.params.groupId }, ctx.params.cursor, ctx.params.limit ?? 50);
    },
  },
});
