import { idParam, limitParam, notBlank, strict } from '@im/sdk';

/**
 * The moderation service's action parameters (fastest-validator). The
 * gateway's OpenAPI document is generated from these, so the two cannot drift.
 */
const reason = {
  type: 'string',
  trim: true,
  min: 1,
  max: 500,
  ...notBlank,
} as const;
const resolution = { type: 'enum', values: ['dismiss', 'delete'] } as const;
const page = { cursor: { ...idParam, optional: true }, limit: limitParam } as const;

export const moderationParams = {
  report: strict({ messageId: idParam, reason }),
  groupReports: strict({ groupId: idParam }),
  resolveGroupReport: strict({ groupId: idParam, reportId: idParam, action: resolution }),
  adminReports: strict({}),
  resolveAdminReport: strict({ reportId: idParam, action: resolution }),
  audit: strict({ ...page }),
  groupAudit: strict({ groupId: idParam, ...page }),
} as const;
