import type { Types } from 'mongoose';
import { storageOf } from '../deps.ts';
import type { FileDoc, FileModel } from '../models.ts';
import type { Quota } from '../quota.ts';
import type { AppContext } from '@im/sdk';

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
  const doc = await files.findOneAndDelete({ _id: fileId, previewOf: { $exists: true } }).lean<FileDoc>();
  if (!doc) return false;
  await quota.release(doc.uploaderId, doc.size);
  const storage = storageOf(app);
  await storage.remove(doc.key).catch((err: unknown) => app.logger.warn({ err, key: doc.key }, 'preview image left'));
  if (doc.thumbnailKey) await storage.remove(doc.thumbnailKey).catch(() => undefined);
  return true;
}
