import type { AuditAction } from '@im/protocol';
import { call, type AuditLog, type Ctx } from '@im/sdk';

/**
 * Records a moderation action on a group member, with the member's username
 * as it is now: the log must still name them after the account is
 * deactivated or deleted (which rewrites the name).
 */
export async function auditMemberAction(
  audit: AuditLog,
  ctx: Ctx<unknown>,
  entry: { actorId: string; action: AuditAction; userId: string; groupId: string; details?: Record<string, unknown> },
): Promise<void> {
  const users = await call(ctx, 'user.getMany', { ids: [entry.userId], includeInactive: true });
  const username = users[entry.userId]?.username;
  await audit.record(entry.actorId, {
    action: entry.action,
    target: { type: 'member', id: entry.userId },
    groupId: entry.groupId,
    details: { ...(username ? { username } : {}), ...entry.details },
  });
}
