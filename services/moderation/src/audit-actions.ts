import type { AuditPage } from '@im/protocol';
import { toAuditEntry, type AuditDoc, type Params } from '@im/sdk';
import { requireGroupAdmin, requireServerAdmin } from './authority.ts';
import type { Ctx, ModerationDeps } from './deps.ts';
import { moderationParams } from './params.ts';

/** Reading the audit log, newest first (the services that make changes write it). */
export const auditActions = ({ auditEntries }: ModerationDeps) => {
  const page = async (filter: Record<string, unknown>, cursor: string | undefined, limit = 50): Promise<AuditPage> => {
    const docs = await auditEntries
      .find({ ...filter, ...(cursor ? { _id: { $lt: cursor } } : {}) })
      .sort({ _id: -1 })
      .limit(limit + 1)
      .lean<AuditDoc[]>();
    const items = docs.slice(0, limit);
    return {
      items: items.map(toAuditEntry),
      nextCursor: docs.length > limit ? items.at(-1)!._id.toHexString() : null,
    };
  };

  return {
    /** Everything, for server admins. */
    audit: {
      params: moderationParams.audit,
      async handler(ctx: Ctx<Params<typeof moderationParams.audit>>): Promise<AuditPage> {
        await requireServerAdmin(ctx);
        return page({}, ctx.params.cursor, ctx.params.limit);
      },
    },

    /** One group's entries, for its owner and admins. */
    groupAudit: {
      params: moderationParams.groupAudit,
      async handler(ctx: Ctx<Params<typeof moderationParams.groupAudit>>): Promise<AuditPage> {
        await requireGroupAdmin(ctx, ctx.params.groupId);
        return page({ groupId: ctx.params.groupId }, ctx.params.cursor, ctx.params.limit);
      },
    },
  };
};
