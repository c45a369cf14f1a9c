import type { PublicUser, Report } from '@im/protocol';
import type { ReportDoc } from './models.ts';

export const toReport = (d: ReportDoc, users: Record<string, PublicUser> = {}): Report => {
  const reporter = users[d.reporterId.toHexString()];
  const author = users[d.message.authorId.toHexString()];
  return {
    id: d._id.toHexString(),
    messageId: d.messageId.toHexString(),
    converseId: d.converseId.toHexString(),
    groupId: d.groupId?.toHexString() ?? null,
    reporterId: d.reporterId.toHexString(),
    reason: d.reason,
    createdAt: d.createdAt.toISOString(),
    status: d.status,
    message: {
      authorId: d.message.authorId.toHexString(),
      content: d.message.content,
      seq: d.message.seq,
      createdAt: d.message.createdAt.toISOString(),
    },
    ...(reporter ? { reporter } : {}),
    ...(author ? { author } : {}),
    ...(d.resolvedBy ? { resolvedBy: d.resolvedBy.toHexString() } : {}),
    ...(d.resolvedAt ? { resolvedAt: d.resolvedAt.toISOString() } : {}),
  };
};
