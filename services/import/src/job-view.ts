import type { ImportJob } from '@im/protocol';
import type { ImportJobDoc } from './models.ts';

export const toImportJob = (doc: ImportJobDoc): ImportJob => ({
  id: doc._id.toHexString(),
  kind: doc.kind,
  fileName: doc.fileName,
  status: doc.status,
  progress: { phase: doc.phase, messages: doc.messages, ...(doc.total !== undefined ? { total: doc.total } : {}) },
  ...(doc.summary ? { summary: doc.summary } : {}),
  ...(doc.skippedReasons ? { skippedReasons: doc.skippedReasons } : {}),
  groupIds: doc.groupIds.map((id) => id.toHexString()),
  ...(doc.error ? { error: doc.error } : {}),
  startedAt: doc.startedAt.toISOString(),
  ...(doc.finishedAt ? { finishedAt: doc.finishedAt.toISOString() } : {}),
});
