/**
 * Shapes that cross the wire between services (never sent to clients): what
 * one service answers another. Declared once here so producer and consumers
 * cannot drift apart.
 */
import type { FileInfo, GroupLanguage, GroupRole, Permission } from './index.ts';

/** What the gateway needs to serve a file's bytes (`file.access`). */
export interface FileAccess extends FileInfo {
  key: string;
  sha256: string;
  thumbnailKey?: string;
}

/** A group of a user, with its size and its panels' converses (`group.userConverses`). */
export interface UserGroupConverses {
  groupId: string;
  memberCount: number;
  converseIds: string[];
}

/** The rooms a user's sockets join at connect (`chat.userRooms`). */
export interface UserRooms {
  groups: UserGroupConverses[];
  dmIds: string[];
}

/** Who may post in a panel: everyone, or only owners and admins (an announcement panel). */
export type PostingRole = 'member' | 'admin';

/** A member's place in the group a converse belongs to (`group.converseMember`). */
export interface ConverseMembership {
  groupId: string;
  role: GroupRole;
  postingRole: PostingRole;
  /** Present when the converse is a voice panel's. */
  panelType?: 'voice';
  /** Epoch ms until which the member is muted (absent: not muted; may lie in the past). */
  mutedUntil?: number;
  /** What the member may do in the group (every permission for owner and admins). */
  permissions: Permission[];
  /** Present when the panel is private (the member is one of those allowed, or they would get null). */
  private?: true;
}

/** A member's standing in a group (`group.memberAccess`): role, custom roles and what they may do. */
export interface MemberAccess {
  role: GroupRole;
  roleIds: string[];
  permissions: Permission[];
}

/** A caller's access to a converse (`chat.access`): a group panel or a DM. */
export type ConverseAccess =
  | ({ kind: 'group'; converseId: string } & ConverseMembership)
  | { kind: 'dm'; converseId: string; memberIds: string[] };

/** A text panel with its group, as public pages and feeds need it (`group.panelInfo`). */
export interface PanelInfo {
  groupId: string;
  groupName: string;
  groupDescription?: string;
  /** The language the group's pages and feeds are written in. */
  groupLanguage: GroupLanguage;
  /** Public groups are listed and joinable; only their panels may be web-public. */
  groupPublic: boolean;
  panelId: string;
  panelName: string;
  converseId: string;
  /** Whether the panel itself is switched web-public (it is readable only when the group is public too). */
  webPublic: boolean;
}
