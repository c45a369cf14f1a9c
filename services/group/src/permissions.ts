import {
  moderationRefusal,
  permissionsOf as sharedPermissionsOf,
  rankOf as sharedRankOf,
  type GroupRole,
  type Permission,
  type RoleHolder,
  type RoleLookup,
} from '@im/protocol';
import type { GroupDoc, PanelDoc } from './models.ts';

/** What `@everyone` may do in a group that never changed it: what plain members could always do. */
export const DEFAULT_EVERYONE: readonly Permission[] = ['createInvites'];

/** `@everyone`'s name; its id is the group's id. */
export const EVERYONE = '@everyone';

/**
 * What a group's roles allow and who sees its private panels: all the send
 * path and the room lookup need, small enough to cache per group.
 */
export interface GroupRules {
  everyone: Permission[];
  /** Custom roles' permissions and positions by role id. */
  roles: Record<string, { permissions: Permission[]; position: number }>;
  /** Private panels by converse id: who is allowed besides owner and admins. */
  privatePanels: Record<string, PanelAudience>;
}

export interface PanelAudience {
  roleIds: string[];
  userIds: string[];
}

/** A private panel allowing nobody but owner and admins (also: one the rules do not know yet). */
export const NOBODY: PanelAudience = { roleIds: [], userIds: [] };

/** Someone's place in a group as the checks need it. */
export type Standing = RoleHolder;

/** Who sees a panel: undefined (everyone) when it is not private. */
export const panelAudience = (
  p: Pick<PanelDoc, 'private' | 'allowRoleIds' | 'allowUserIds'>,
): PanelAudience | undefined => (p.private ? audienceOf(p) : undefined);

export const rulesOf = (g: Pick<GroupDoc, 'roles' | 'everyonePermissions' | 'panels'>): GroupRules => ({
  everyone: [...(g.everyonePermissions ?? DEFAULT_EVERYONE)],
  roles: Object.fromEntries(
    (g.roles ?? []).map((r) => [r._id.toHexString(), { permissions: r.permissions, position: r.position }]),
  ),
  privatePanels: Object.fromEntries(
    g.panels.filter((p) => p.private).map((p) => [p.converseId.toHexString(), audienceOf(p)]),
  ),
});

/** Who a private panel allows besides owner and admins. */
export const audienceOf = (p: Pick<PanelDoc, 'allowRoleIds' | 'allowUserIds'>): PanelAudience => ({
  roleIds: (p.allowRoleIds ?? []).map((id) => id.toHexString()),
  userIds: (p.allowUserIds ?? []).map((id) => id.toHexString()),
});

const isManager = (role: GroupRole) => role === 'owner' || role === 'admin';

/** A group's custom role by id, as the shared rules ask for it. */
const lookupIn =
  (rules: Pick<GroupRules, 'roles'>): RoleLookup =>
  (id) =>
    rules.roles[id];

/** Every permission for owner and admins; else `@everyone`'s and those of the member's roles. */
export const permissionsOf = (standing: Standing, rules: Pick<GroupRules, 'everyone' | 'roles'>): Permission[] =>
  sharedPermissionsOf(standing, rules.everyone, lookupIn(rules));

/** The rank of someone's highest role (owner and admins rank above every role). */
export const rankOf = (standing: Standing, rules: Pick<GroupRules, 'roles'>): number =>
  sharedRankOf(standing, lookupIn(rules));

/** Why someone holding a moderation permission may not act on `target` (null: not a member), or null. */
export const moderationRefusalIn = (actor: Standing, target: Standing | null, rules: Pick<GroupRules, 'roles'>) =>
  moderationRefusal(actor, target, lookupIn(rules));

/** Whether a member sees a panel: every panel but a private one they are not allowed in. */
export function maySee(standing: Standing, userId: string, audience: PanelAudience | undefined): boolean {
  if (!audience || isManager(standing.role)) return true;
  return audience.userIds.includes(userId) || (standing.roleIds ?? []).some((id) => audience.roleIds.includes(id));
}
