import type { AppContext } from '@im/sdk';
import type { Types } from 'mongoose';
import type { FileModel } from '../models.ts';
import type { Quota } from '../quota.ts';
import { removeFileWhere } from '../removal.ts';

/**
 * Removes a link preview's stored image: its record first (once gone the
 * file is unreachable, whatever happens next), the bytes it took given back
 * to its author's storage use, then its object. Only preview images (files
 * with `previewOf`): a message's attachments are never removed here. Answers
 * whether there was one.
 */
export async function removePreviewImage(
  app: AppContext,
  files: FileModel,
  quota: Quota,
  fileId: string | Types.ObjectId,
): Promise<boolean> {
  return removeFileWhere(app, files, quota, { _id: fileId, previewOf: { $exists: true } });
}
