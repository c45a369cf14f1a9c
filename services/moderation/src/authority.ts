import { call, callerId, ImError } from '@im/sdk';
import type { Ctx } from './deps.ts';

/** The caller, who must be an owner or admin of the group (not a member: 404; a plain member: 403). */
export async function requireGroupAdmin(ctx: Ctx<object>, groupId: string): Promise<string> {
  const userId = callerId(ctx);
  const role = await call(ctx, 'group.memberRole', { groupId, userId });
  if (!role) throw new ImError('IM_ERR_NOT_FOUND', 'Group not found');
  if (role === 'member') throw new ImError('IM_ERR_FORBIDDEN', 'Only owner or admin may do this');
  return userId;
}

/** The caller, who must be a server admin (ADMIN_USERNAMES), else 403. */
export async function requireServerAdmin(ctx: Ctx<object>): Promise<string> {
  const userId = callerId(ctx);
  if (!(await call(ctx, 'user.isServerAdmin', { userId })))
    throw new ImError('IM_ERR_FORBIDDEN', 'Only server administrators may do this');
  return userId;
}
