import { EVENTS, FileUrlSigner, type AppContext, type ServiceEvents, type ServiceFactory } from '@im/sdk';
import { CLEANUP_EVERY_MS, removeUnattached } from './cleanup.ts';
import { fileActions } from './file-actions.ts';
import { fileModel, usageModel } from './models.ts';
import { Quota } from './quota.ts';
import { thumbnailOnUpload } from './thumbnails.ts';

/**
 * File metadata and access. The bytes stream between the client, the
 * gateway and the storage backend; this service records them (after they are
 * stored), decides who may read them, makes thumbnails and removes files
 * that were never attached.
 */
export const createFileService: ServiceFactory = (app: AppContext) => {
  const files = fileModel(app.mongo!);
  const quota = new Quota(usageModel(app.mongo!), files, app.config.fileQuotaBytes);
  let cleanupTimer: NodeJS.Timeout | undefined;
  return {
    name: 'file',
    async started() {
      await files.createIndexes();
      cleanupTimer = setInterval(() => {
        void removeUnattached(app, files, quota).catch((err: unknown) =>
          app.logger.warn({ err }, 'file cleanup failed'),
        );
      }, CLEANUP_EVERY_MS);
      cleanupTimer.unref();
    },
    stopped() {
      clearInterval(cleanupTimer);
    },
    actions: fileActions({ app, files, quota, signer: new FileUrlSigner(app.config.secret, app.config.fileUrlTtlSec) }),
    events: {
      [EVENTS.fileUploaded]: { handler: thumbnailOnUpload(app, files) },
    } satisfies ServiceEvents,
  };
};
