import type { GroupRole, Permission } from '@im/protocol';
import { lackingPermission, forbidden, notFound } from '@im/sdk';
import type { GroupDoc, MemberDoc } from './models.ts';
import type { HandlerModels } from './store/reads.ts';
import { moderationRefusalIn, permissionsOf, rulesOf, type GroupRules, type Standing } from './permissions.ts';

export const OWNER = ['owner'] as const;

/** A member without `permission`: 403, naming what they may not do. */
export const lacking = lackingPermission;

/**
 * Loads a group as seen by a user: a group the user is not in does not
 * exist for them (404); a member who lacks `need` (a permission, or one of
 * the given roles) gets a 403.
 */
export async function loadForMember(
  models: HandlerModels,
  groupId: string,
  userId: string,
  need?: Permission | readonly GroupRole[],
): Promise<{ group: GroupDoc; me: MemberDoc; permissions: Permission[] }> {
  const [group, me] = await Promise.all([
    models.groups.findById(groupId).lean<GroupDoc>(),
    models.members.findOne({ groupId, userId }).lean<MemberDoc>(),
  ]);
  if (!group || !me) throw notFound('group');
  const permissions = permissionsOf(standingOf(me), rulesOf(group));
  if (typeof need === 'string' && !permissions.includes(need)) throw lacking(need);
  if (Array.isArray(need) && !need.includes(me.role)) throw forbidden(`Only ${need.join(' or ')} may do this`);
  return { group, me, permissions };
}

export const standingOf = (m: Pick<MemberDoc, 'role' | 'roleIds'>): Standing => ({
  role: m.role,
  roleIds: (m.roleIds ?? []).map((id) => id.toHexString()),
});

/**
 * Why someone holding a moderation permission may not act on `target` (null:
 * not a member), or null when they may (the rule: @im/protocol's moderationRefusal).
 */
export function refusalToModerate(
  actor: Standing,
  target: Standing | null,
  rules: Pick<GroupRules, 'roles'>,
  verb: { base: string; past: string },
): string | null {
  switch (moderationRefusalIn(actor, target, rules)) {
    case 'owner':
      return `The owner cannot be ${verb.past}`;
    case 'admin':
      return `Only the owner may ${verb.base} an admin`;
    case 'rank':
      return 'Only members whose roles rank higher may act on this member';
    default:
      return null;
  }
}
