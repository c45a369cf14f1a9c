import type { FileAccess, FileInfo } from '@im/protocol';
import type { FileDoc } from './models.ts';

/** What clients see of a file (the upload's answer, GET /api/files/:fileId/info). */
export const toFileInfo = (doc: FileDoc): FileInfo => ({
  id: doc._id.toHexString(),
  name: doc.name,
  size: doc.size,
  mime: doc.mime,
  url: `/api/files/${doc._id.toHexString()}`,
  ...(doc.thumbnailKey ? { thumbnailUrl: `/api/files/${doc._id.toHexString()}/thumbnail` } : {}),
});

/** What the gateway needs to serve a file's bytes. */
export const toFileAccess = (doc: FileDoc): FileAccess => ({
  ...toFileInfo(doc),
  key: doc.key,
  sha256: doc.sha256,
  ...(doc.thumbnailKey ? { thumbnailKey: doc.thumbnailKey } : {}),
});
