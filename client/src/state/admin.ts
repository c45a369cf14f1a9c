import type {
  AdminUserPage,
  ClaimLink,
  AuditPage,
  RegistrationMode,
  Report,
  ResolveReportBody,
  ServerSettings,
} from '@im/protocol';
import { http, path } from '../api/http.ts';
import { pageQuery, rememberReportUsers } from './moderation.ts';

// The server admins' calls (/api/admin). They throw: the console shows failures where they happened.

export const ADMIN_USERS_PAGE = 50;

export function listUsers(q: string, cursor: string | null): Promise<AdminUserPage> {
  const search = q.trim() ? `&q=${encodeURIComponent(q.trim())}` : '';
  return http.get<AdminUserPage>(`/api/admin/users${pageQuery(cursor, ADMIN_USERS_PAGE)}${search}`);
}

export const setUserActive = (userId: string, active: boolean): Promise<void> =>
  http.post(active ? path`/api/admin/users/${userId}/activate` : path`/api/admin/users/${userId}/deactivate`);

/** A new claim link for an imported account (the one made before stops working). */
export const makeClaimLink = (userId: string): Promise<ClaimLink> =>
  http.post<ClaimLink>(path`/api/admin/users/${userId}/claim-link`);

export const getSettings = (): Promise<ServerSettings> => http.get<ServerSettings>('/api/admin/settings');

export const setRegistration = (registration: RegistrationMode): Promise<ServerSettings> =>
  http.patch<ServerSettings>('/api/admin/settings', { registration });

export const serverAudit = (cursor: string | null): Promise<AuditPage> =>
  http.get<AuditPage>(`/api/admin/audit${pageQuery(cursor)}`);

export async function listServerReports(): Promise<Report[]> {
  const reports = await http.get<Report[]>('/api/admin/reports');
  rememberReportUsers(reports);
  return reports;
}

export const resolveServerReport = (reportId: string, action: ResolveReportBody['action']): Promise<Report> =>
  http.post<Report>(path`/api/admin/reports/${reportId}/resolve`, { action });
