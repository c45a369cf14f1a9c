import type { GroupRole, Permission } from '@im/protocol';
import { ImError, lackingPermission } from '@im/sdk';
import type { GroupDoc, GroupModels, MemberDoc } from './models.ts';
import { permissionsOf, rankOf, rulesOf, type GroupRules, type Standing } from './permissions.ts';

const NOT_FOUND = 'Group not found';

export const OWNER = ['owner'] as const;

/** A member without `permission`: 403, naming what they may not do. */
export const lacking = lackingPermission;

/**
 * Loads a group as seen by a user: a group the user is not in does not
 * exist for them (404); a member who lacks `need` (a permission, or one of
 * the given roles) gets a 403.
 */
export async function loadForMember(
  models: GroupModels,
  groupId: string,
  userId: string,
  need?: Permission | readonly GroupRole[],
): Promise<{ group: GroupDoc; me: MemberDoc; permissions: Permission[] }> {
  const [group, me] = await Promise.all([
    models.groups.findById(groupId).lean<GroupDoc>(),
    models.members.findOne({ groupId, userId }).lean<MemberDoc>(),
  ]);
  if (!group || !me) throw new ImError('IM_ERR_NOT_FOUND', NOT_FOUND);
  const permissions = permissionsOf(standingOf(me), rulesOf(group));
  if (typeof need === 'string' && !permissions.includes(need)) throw lacking(need);
  if (Array.isArray(need) && !need.includes(me.role))
    throw new ImError('IM_ERR_FORBIDDEN', `Only ${need.join(' or ')} may do this`);
  return { group, me, permissions };
}

export const standingOf = (m: Pick<MemberDoc, 'role' | 'roleIds'>): Standing => ({
  role: m.role,
  roleIds: (m.roleIds ?? []).map((id) => id.toHexString()),
});

/**
 * Why someone holding a moderation permission may not act on `target` (null:
 * not a member), or null when they may: the owner acts on anyone but the
 * owner; an admin on plain members and outsiders; a plain member on plain
 * members whose highest role ranks below their own, and outsiders.
 */
export function refusalToModerate(
  actor: Standing,
  target: Standing | null,
  rules: Pick<GroupRules, 'roles'>,
  verb: { base: string; past: string },
): string | null {
  if (!target) return null;
  if (target.role === 'owner') return `The owner cannot be ${verb.past}`;
  if (actor.role === 'owner') return null;
  if (target.role === 'admin') return `Only the owner may ${verb.base} an admin`;
  if (actor.role === 'admin') return null;
  return rankOf(actor, rules) > rankOf(target, rules)
    ? null
    : `Only members whose roles rank higher may act on this member`;
}
