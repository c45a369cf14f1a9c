import {
  EVENTS,
  FileUrlSigner,
  outboundGuardFor,
  type AppContext,
  type ServiceEvents,
  type ServiceFactory,
  defineActions,
} from '@im/sdk';
import { CLEANUP_EVERY_MS, removeUnattached } from './cleanup.ts';
import { avatarActions } from './avatar-actions.ts';
import { fileActions } from './file-actions.ts';
import { groupIconActions } from './group-icon-actions.ts';
import { linkPreviewOnMessage } from './link-preview/link-preview.ts';
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
  // Link previews wait at most 5 s for a page (the contract), whatever other outbound requests may take.
  const previewGuard = outboundGuardFor(app, 'previews', {
    timeoutMs: Math.min(5000, app.config.outboundTimeoutMs),
    connections: 4,
  });
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
    async stopped() {
      clearInterval(cleanupTimer);
      await previewGuard.close();
    },
    actions: defineActions('file', {
      ...fileActions({ app, files, quota, signer: new FileUrlSigner(app.config.secret, app.config.fileUrlTtlSec) }),
      ...avatarActions({ files }),
      ...groupIconActions({ app, files, quota }),
    }),
    events: {
      [EVENTS.fileUploaded]: { handler: thumbnailOnUpload(app, files) },
      [EVENTS.messageCreated]: { handler: linkPreviewOnMessage(app, files, quota, previewGuard) },
    } satisfies ServiceEvents,
  };
};
