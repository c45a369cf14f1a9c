import type { AppContext } from '@im/sdk';
import type { FilterQuery } from 'mongoose';
import { storageOf } from './deps.ts';
import type { FileDoc, FileModel } from './models.ts';
import type { Quota } from './quota.ts';

/**
 * Removes the one file matching `filter`: its record first (once gone the
 * file is unreachable, whatever happens next), the bytes it took given back
 * to its uploader's storage use, then its objects. Answers whether there was one.
 */
export async function removeFileWhere(
  app: AppContext,
  files: FileModel,
  quota: Quota,
  filter: FilterQuery<FileDoc>,
): Promise<boolean> {
  const doc = await files.findOneAndDelete(filter).lean<FileDoc>();
  if (!doc) return false;
  await quota.release(doc.uploaderId, doc.size);
  const storage = storageOf(app);
  await storage.remove(doc.key).catch((err: unknown) => app.logger.warn({ err, key: doc.key }, 'file bytes left'));
  if (doc.thumbnailKey) await storage.remove(doc.thumbnailKey).catch(() => undefined);
  return true;
}
