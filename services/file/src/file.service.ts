import { EVENTS, type AppContext, type ServiceEvents, type ServiceFactory } from '@im/sdk';
import { CLEANUP_EVERY_MS, removeUnattached } from './cleanup.ts';
import { fileActions } from './file-actions.ts';
import { fileModel } from './models.ts';
import { thumbnailOnUpload } from './thumbnails.ts';

/**
 * File metadata and access. The bytes stream between the client, the
 * gateway and the storage backend; this service records them (after they are
 * stored), decides who may read them, makes thumbnails and removes files
 * that were never attached.
 */
export const createFileService: ServiceFactory = (app: AppContext) => {
  const files = fileModel(app.mongo!);
  let cleanupTimer: NodeJS.Timeout | undefined;
  return {
    name: 'file',
    async started() {
      await files.createIndexes();
      cleanupTimer = setInterval(() => {
        void removeUnattached(app, files).catch((err: unknown) => app.logger.warn({ err }, 'file cleanup failed'));
      }, CLEANUP_EVERY_MS);
      cleanupTimer.unref();
    },
    stopped() {
      clearInterval(cleanupTimer);
    },
    actions: fileActions({ app, files }),
    events: {
      [EVENTS.fileUploaded]: { handler: thumbnailOnUpload(app, files) },
    } satisfies ServiceEvents,
  };
};
