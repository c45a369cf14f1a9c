import type { AppContext } from '@im/sdk';
import { storageOf } from './deps.ts';
import type { FileDoc, FileModel } from './models.ts';
import type { Quota } from './quota.ts';

/** How often a file node looks for files that were uploaded but never attached. */
export const CLEANUP_EVERY_MS = 10 * 60 * 1000;

/** Not attached to a message, not a group's emoji, not a profile picture, not a group's icon. */
const UNUSED = { converseIds: { $size: 0 }, groupIds: { $in: [null, []] }, avatarOf: null, iconOf: null };

/** Removes files never attached and older than FILE_UNATTACHED_GRACE_SEC (500 at a time); answers how many. */
export async function removeUnattached(app: AppContext, files: FileModel, quota: Quota): Promise<number> {
  const cutoff = new Date(Date.now() - app.config.fileUnattachedGraceSec * 1000);
  const stale = await files
    .find({ createdAt: { $lt: cutoff }, ...UNUSED })
    .limit(500)
    .lean<FileDoc[]>();
  const storage = storageOf(app);
  for (const doc of stale) {
    // Metadata first: once it is gone the file is unreachable, whatever happens next.
    const { deletedCount } = await files.deleteOne({
      _id: doc._id,
      ...UNUSED,
    });
    if (deletedCount === 0) continue;
    await quota.release(doc.uploaderId, doc.size);
    await storage.remove(doc.key).catch(() => undefined);
    if (doc.thumbnailKey) await storage.remove(doc.thumbnailKey).catch(() => undefined);
  }
  return stale.length;
}
