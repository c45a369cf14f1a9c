import type { AuditPage, Ban, Invite, Report, ResolveReportBody } from '@im/protocol';
import { changeMemberMute, dropMember } from './groups.ts';
import { rememberUsers } from './users.ts';
import { api } from '../api/api.ts';

// A group's moderation calls. They throw: the settings dialog shows failures
// next to what was clicked, not as a passing notice.

export const AUDIT_PAGE_SIZE = 50;

/** `?limit=&cursor=` for a paged list (no cursor: the first page). */
export function pageParams(cursor: string | null, limit = AUDIT_PAGE_SIZE): { limit: number; cursor?: string } {
  return { limit, ...(cursor ? { cursor } : {}) };
}

export const listInvites = (groupId: string): Promise<Invite[]> => api.call('group.listInvites', { groupId });

export const revokeInvite = (groupId: string, code: string): Promise<void> =>
  api.call('group.revokeInvite', { groupId, code });

export async function listBans(groupId: string): Promise<Ban[]> {
  const bans = await api.call('group.bans', { groupId });
  rememberUsers(bans.map((b) => b.user));
  return bans;
}

/** Bans a member (or anyone): they leave the group and cannot join again until unbanned. */
export async function banUser(groupId: string, userId: string, reason: string): Promise<void> {
  await api.call('group.ban', { groupId, userId, ...(reason ? { reason } : {}) });
  dropMember(groupId, userId);
}

export const unbanUser = (groupId: string, userId: string): Promise<void> =>
  api.call('group.unban', { groupId, userId });

/** Mutes a member for `seconds` from now; 0 lifts the mute. */
export async function muteMember(groupId: string, userId: string, seconds: number): Promise<void> {
  await api.call('group.mute', { groupId, userId, seconds });
  // Shown at once; the member:updated event that follows brings the server's exact time.
  changeMemberMute(groupId, userId, seconds > 0 ? new Date(Date.now() + seconds * 1000).toISOString() : undefined);
}

export async function listGroupReports(groupId: string): Promise<Report[]> {
  const reports = await api.call('moderation.groupReports', { groupId });
  rememberReportUsers(reports);
  return reports;
}

export const resolveGroupReport = (
  groupId: string,
  reportId: string,
  action: ResolveReportBody['action'],
): Promise<Report> => api.call('moderation.resolveGroupReport', { groupId, reportId, action });

export const groupAudit = (groupId: string, cursor: string | null): Promise<AuditPage> =>
  api.call('moderation.groupAudit', { groupId, ...pageParams(cursor) });

/** Reports a message to the group's admins (or, for a DM, the server admins). */
export const reportMessage = (messageId: string, reason: string): Promise<Report> =>
  api.call('moderation.report', { messageId, reason });

/** Reports carry their reporter and author: known names for the rest of the app. */
export function rememberReportUsers(reports: Report[]): void {
  rememberUsers(reports.flatMap((r) => [r.reporter, r.author].filter((u) => u !== undefined)));
}
