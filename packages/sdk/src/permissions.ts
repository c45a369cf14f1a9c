import type { Permission } from '@im/protocol';
import { ImError } from './errors/im-error.ts';

/** What each permission lets its holders do, for the 403's message. */
const DOING: Record<Permission, string> = {
  manageGroup: 'manage the group',
  manageRoles: 'manage roles',
  managePanels: 'manage panels',
  manageMessages: "manage others' messages",
  kickMembers: 'kick members',
  banMembers: 'ban members',
  muteMembers: 'mute members',
  createInvites: 'create invites',
  mentionAll: 'mention everyone',
  pinMessages: 'pin messages',
  manageIntegrations: 'manage integrations',
  viewAuditLog: 'view the audit log',
};

/** A member without `permission`: 403 IM_ERR_FORBIDDEN naming what they may not do (the group service's wording). */
export const lackingPermission = (permission: Permission): ImError =>
  new ImError('IM_ERR_FORBIDDEN', `You need the ${permission} permission to ${DOING[permission]}`, { permission });

/**
 * Refuses a member whose group permissions (a `ConverseAccess`'s or
 * `group.memberAccess`'s) lack `permission`. Whether they are a member at
 * all is the caller's check first: outsiders get a 404, never this 403.
 */
export function requirePermission(permissions: readonly Permission[], permission: Permission): void {
  if (!permissions.includes(permission)) throw lackingPermission(permission);
}
