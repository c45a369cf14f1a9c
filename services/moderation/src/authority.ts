import type { Permission } from '@im/protocol';
import { call, callerId, ImError, requirePermission } from '@im/sdk';
import type { Ctx } from './deps.ts';

/** The caller, who must hold `permission` in the group (not a member: 404; a member without it: 403). */
export async function requireGroupPermission(
  ctx: Ctx<object>,
  groupId: string,
  permission: Permission,
): Promise<string> {
  const userId = callerId(ctx);
  const access = await call(ctx, 'group.memberAccess', { groupId, userId });
  if (!access) throw new ImError('IM_ERR_NOT_FOUND', 'Group not found');
  requirePermission(access.permissions, permission);
  return userId;
}

/** The caller, who must be a server admin (ADMIN_USERNAMES), else 403. */
export async function requireServerAdmin(ctx: Ctx<object>): Promise<string> {
  const userId = callerId(ctx);
  if (!(await call(ctx, 'user.isServerAdmin', { userId })))
    throw new ImError('IM_ERR_FORBIDDEN', 'Only server administrators may do this');
  return userId;
}
