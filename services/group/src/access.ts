import type { GroupRole } from '@im/protocol';
import { ImError } from '@im/sdk';
import type { GroupDoc, GroupModels, MemberDoc } from './models.ts';

const NOT_FOUND = 'Group not found';

/**
 * Loads a group as seen by a user: a group the user is not in does not
 * exist for them (404), and a role outside `allowed` is a 403.
 */
export async function loadForMember(
  models: GroupModels,
  groupId: string,
  userId: string,
  allowed?: readonly GroupRole[],
): Promise<{ group: GroupDoc; me: MemberDoc }> {
  const [group, me] = await Promise.all([
    models.groups.findById(groupId).lean<GroupDoc>(),
    models.members.findOne({ groupId, userId }).lean<MemberDoc>(),
  ]);
  if (!group || !me) throw new ImError('IM_ERR_NOT_FOUND', NOT_FOUND);
  if (allowed && !allowed.includes(me.role))
    throw new ImError('IM_ERR_FORBIDDEN', `Only ${allowed.join(' or ')} may do this`);
  return { group, me };
}

export const OWNER = ['owner'] as const;
export const MANAGERS = ['owner', 'admin'] as const;

/**
 * Whether someone of role `actor` may act on a user of role `target` (null:
 * not a member): the owner on anyone but the owner, an admin on plain
 * members and outsiders only.
 */
export const mayModerate = (actor: GroupRole, target: GroupRole | null): boolean =>
  target !== 'owner' && (actor === 'owner' || (actor === 'admin' && (target === null || target === 'member')));
