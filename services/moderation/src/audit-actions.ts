import type { AuditEntry, AuditPage } from '@im/protocol';
import { call, type Params, type Ctx } from '@im/sdk';
import { groupStanding, readableConverses, requireServerAdmin } from './authority.ts';
import type { ModerationDeps } from './deps.ts';
import { moderationParams } from './params.ts';

/** Reading the audit log, newest first (the services that make changes write it). */
export const auditActions = ({ audit }: ModerationDeps) => ({
  /** Everything, for server admins. */
  audit: {
    params: moderationParams.audit,
    async handler(ctx: Ctx<Params<typeof moderationParams.audit>>): Promise<AuditPage> {
      await requireServerAdmin(ctx);
      return withGroupNames(ctx, await audit.page({}, ctx.params.cursor, ctx.params.limit ?? 50));
    },
  },

  /** One group's entries, for holders of viewAuditLog (owner and admins hold it). */
  groupAudit: {
    params: moderationParams.groupAudit,
    async handler(ctx: Ctx<Params<typeof moderationParams.groupAudit>>): Promise<AuditPage> {
      const { userId, role } = await groupStanding(ctx, ctx.params.groupId, 'viewAuditLog');
      const page = await audit.page({ groupId: ctx.params.groupId }, ctx.params.cursor, ctx.params.limit ?? 50);
      // Owner and admins see every panel; a role holder not what private panels they are not allowed in.
      if (role !== 'member') return page;
      return { ...page, items: await withoutHiddenPanels(ctx, userId, page.items) };
    },
  },
});

/**
 * Drops the entries about private panels the user may not see (a deleted
 * one included): their names and allow lists are the panel's to keep.
 */
async function withoutHiddenPanels(ctx: Ctx<object>, userId: string, items: AuditEntry[]): Promise<AuditEntry[]> {
  const privateIds = new Set(
    items.filter((e) => e.target.type === 'panel' && e.details.private === true).map((e) => e.target.id),
  );
  if (privateIds.size === 0) return items;
  const infos = await Promise.all([...privateIds].map((panelId) => call(ctx, 'group.panelInfo', { panelId })));
  const converseOf = new Map(infos.flatMap((info) => (info ? [[info.panelId, info.converseId] as const] : [])));
  const readable = await readableConverses(ctx, userId, converseOf.values());
  const hidden = new Set([...privateIds].filter((id) => !readable.has(converseOf.get(id) ?? '')));
  return items.filter((e) => !(e.target.type === 'panel' && hidden.has(e.target.id)));
}

/** The server-wide log names the group of each entry (it mixes every group's). */
async function withGroupNames(ctx: Ctx<object>, page: AuditPage): Promise<AuditPage> {
  const ids = [...new Set(page.items.flatMap((e) => (e.groupId ? [e.groupId] : [])))];
  if (ids.length === 0) return page;
  const names = await call(ctx, 'group.namesOf', { ids });
  return {
    ...page,
    items: page.items.map((e) => {
      const groupName = e.groupId ? names[e.groupId] : undefined;
      return groupName ? { ...e, groupName } : e;
    }),
  };
}
