import type {
  AdminUserPage,
  ClaimLink,
  AuditPage,
  RegistrationMode,
  Report,
  ResolveReportBody,
  ServerSettings,
} from '@im/protocol';
import { pageParams, rememberReportUsers } from './moderation.ts';
import { api } from '../api/api.ts';

// The server admins' calls (/api/admin). They throw: the console shows failures where they happened.

export const ADMIN_USERS_PAGE = 50;

export function listUsers(q: string, cursor: string | null): Promise<AdminUserPage> {
  return api.call('user.adminUsers', { ...pageParams(cursor, ADMIN_USERS_PAGE), ...(q.trim() ? { q: q.trim() } : {}) });
}

export const setUserActive = (userId: string, active: boolean): Promise<void> =>
  api.call(active ? 'user.activate' : 'user.deactivate', { userId });

/** A new claim link for an imported account (the one made before stops working). */
export const makeClaimLink = (userId: string): Promise<ClaimLink> => api.call('user.adminClaimLink', { userId });

export const getSettings = (): Promise<ServerSettings> => api.call('user.settings');

export const setRegistration = (registration: RegistrationMode): Promise<ServerSettings> =>
  api.call('user.updateSettings', { registration });

export const serverAudit = (cursor: string | null): Promise<AuditPage> =>
  api.call('moderation.audit', pageParams(cursor));

export async function listServerReports(): Promise<Report[]> {
  const reports = await api.call('moderation.adminReports');
  rememberReportUsers(reports);
  return reports;
}

export const resolveServerReport = (reportId: string, action: ResolveReportBody['action']): Promise<Report> =>
  api.call('moderation.resolveAdminReport', { reportId, action });
