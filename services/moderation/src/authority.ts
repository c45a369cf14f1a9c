import type { GroupRole, Permission } from '@im/protocol';
import { call, callerId, requirePermission, type Ctx, notFound, forbidden } from '@im/sdk';

/** The caller, who must hold `permission` in the group (not a member: 404; a member without it: 403). */
export async function requireGroupPermission(
  ctx: Ctx<object>,
  groupId: string,
  permission: Permission,
): Promise<string> {
  return (await groupStanding(ctx, groupId, permission)).userId;
}

/** Like requireGroupPermission, with the caller's role (owner and admins see every private panel). */
export async function groupStanding(
  ctx: Ctx<object>,
  groupId: string,
  permission: Permission,
): Promise<{ userId: string; role: GroupRole }> {
  const userId = callerId(ctx);
  const access = await call(ctx, 'group.memberAccess', { groupId, userId });
  if (!access) throw notFound('group');
  requirePermission(access.permissions, permission);
  return { userId, role: access.role };
}

/**
 * Which of `converseIds` the user may read (one call each, cached by the
 * group service): a role holder who moderates must not see, through the
 * queue or the log, what a private panel they are not allowed in holds.
 */
export async function readableConverses(ctx: Ctx<object>, userId: string, converseIds: Iterable<string>) {
  const unique = [...new Set(converseIds)];
  const access = await Promise.all(unique.map((converseId) => call(ctx, 'chat.access', { converseId, userId })));
  return new Set(unique.filter((_, i) => access[i] !== null));
}

/** The caller, who must be a server admin (ADMIN_USERNAMES), else 403. */
export async function requireServerAdmin(ctx: Ctx<object>): Promise<string> {
  const userId = callerId(ctx);
  if (!(await call(ctx, 'user.isServerAdmin', { userId }))) throw forbidden('Only server administrators may do this');
  return userId;
}
