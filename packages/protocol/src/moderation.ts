/**
 * Moderation and server administration (shared/API.md, "Additions": Invites
 * and bans, Server administration): the shapes those endpoints answer.
 */
import type { Id, Int, PublicUser, Timestamp } from './index.ts';

/** `GET /api/groups/:id/bans` (admins). */
export interface Ban {
  /** The banned user (a deleted account shows as such). */
  user: PublicUser;
  /** Empty when none was given. */
  reason: string;
  bannedBy: Id;
  bannedAt: Timestamp;
}

/** `PUT /api/groups/:id/members/:userId/mute` body: seconds from now; 0 lifts the mute. */
export interface MuteBody {
  seconds: Int;
}

/** `open`: anyone; `invite`: a valid group invite (`inviteCode`) is needed; `closed`: nobody but server admins. */
export type RegistrationMode = 'open' | 'invite' | 'closed';

/** `GET /api/auth/options` (no auth): what the sign-in screen offers. */
export interface AuthOptions {
  registration: RegistrationMode;
  /** Present when single sign-on (OpenID Connect) is configured: the login button's label. */
  oidc?: { label: string };
  /** The largest file `POST /api/files` accepts, in bytes: clients refuse bigger ones before sending them. */
  maxUploadBytes?: number;
  /** Always sent by this server. E-mail is configured (SMTP_URL): addresses can be verified and missed-message e-mails are sent. */
  email?: boolean;
  /** "Forgot password?" works: a reset link can be e-mailed (same as `email` today). */
  passwordReset?: boolean;
}

/**
 * `POST /api/auth/oidc/link`: where to send the browser to link the caller's
 * account to their account at the single sign-on provider (a path of this
 * server that redirects on to the provider; it works once, for 10 minutes).
 */
export interface OidcLink {
  url: string;
}

/** `GET`/`PATCH /api/admin/settings` (server admins): settings changed at run time. */
export interface ServerSettings {
  /** Starts as REGISTRATION; once a server admin sets it, the stored choice wins. */
  registration: RegistrationMode;
}

/** A user as server admins see it (`GET /api/admin/users`). */
export interface AdminUser extends PublicUser {
  /** false: deactivated (login refused, sessions ended). */
  active: boolean;
  /** The account's stored server-admin flag (set by ADMIN_USERNAMES). */
  serverAdmin: boolean;
  /** The last time one of the user's sessions was used; null: no session on record (ended ones go a week after they expire). */
  lastSeenAt: Timestamp | null;
}

export interface AdminUserPage {
  items: AdminUser[];
  nextCursor: string | null;
}

/** What an audit entry is about. */
export interface AuditTarget {
  type: 'user' | 'group' | 'member' | 'panel' | 'invite' | 'message' | 'report' | 'settings' | 'role' | 'usergroup';
  /** The object's id (an invite's code; a member's user id; `registration` for settings). */
  id: string;
}

/**
 * One moderation or administration action, recorded by the action that made
 * the change, after it succeeded. `action` is one of AUDIT_ACTIONS.
 */
export interface AuditEntry {
  id: Id;
  at: Timestamp;
  actorId: Id;
  action: AuditAction;
  target: AuditTarget;
  /** The group it happened in, when it happened in one. */
  groupId?: Id;
  /** That group's name now, in the server-wide log (`GET /api/admin/audit`); absent once the group is deleted. */
  groupName?: string;
  /** What else is worth knowing: a ban's reason, a mute's end, a role, a report's outcome… */
  details: Record<string, unknown>;
}

export type AuditAction =
  | 'user.deactivate'
  | 'user.activate'
  | 'settings.update'
  | 'group.delete'
  | 'group.visibility'
  | 'panel.delete'
  | 'panel.update'
  | 'member.kick'
  | 'member.role'
  | 'member.roleGive'
  | 'member.roleTake'
  | 'role.create'
  | 'role.update'
  | 'role.delete'
  | 'usergroup.create'
  | 'usergroup.update'
  | 'usergroup.delete'
  | 'member.ban'
  | 'member.unban'
  | 'member.mute'
  | 'member.unmute'
  | 'invite.revoke'
  | 'message.delete'
  | 'report.resolve'
  | 'user.resetLink'
  | 'user.claimLink'
  | 'user.claim';

export interface AuditPage {
  items: AuditEntry[];
  nextCursor: string | null;
}

/** `POST /api/messages/:id/report` body. */
export interface ReportBody {
  reason: string;
}

/** A report of a message, with the message as it was when reported. */
export interface Report {
  id: Id;
  messageId: Id;
  converseId: Id;
  /** null: a message of a DM (server admins see those). */
  groupId: Id | null;
  reporterId: Id;
  reason: string;
  createdAt: Timestamp;
  status: 'open' | 'dismissed' | 'deleted';
  /** The reported message when the report was made (it may have been edited or deleted since). */
  message: { authorId: Id; content: string; seq: Int; createdAt: Timestamp };
  /** The reporter and the message's author, for display (absent when the account is gone). */
  reporter?: PublicUser;
  author?: PublicUser;
  resolvedBy?: Id;
  resolvedAt?: Timestamp;
}

/** `POST /api/groups/:id/reports/:reportId/resolve`: dismiss it, or delete the message (every open report of it closes). */
export interface ResolveReportBody {
  action: 'dismiss' | 'delete';
}
