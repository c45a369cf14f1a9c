import {
  callerId,
  EVENTS,
  ImError,
  type ActionParams,
  type ActionResult,
  type AppContext,
  type CallerMeta,
  type ServiceFactory,
} from '@im/sdk';
import type { Context } from 'moleculer';
import { Types } from 'mongoose';
import { fileModel, type FileDoc } from './models.ts';
import { sanitizeFileName } from './names.ts';
import { fileParams } from './params.ts';
import { canThumbnail, makeThumbnail } from './thumbnails.ts';

type Ctx<P = Record<string, never>> = Context<P, CallerMeta>;

/** What clients see of a file (the upload's answer and GET /api/files/:fileId/info; FileInfo in @im/protocol). */
export interface FileView {
  id: string;
  name: string;
  size: number;
  mime: string;
  url: string;
  thumbnailUrl?: string;
}

/** What the gateway needs to serve a file's bytes. */
export interface FileAccess extends FileView {
  key: string;
  sha256: string;
  thumbnailKey?: string;
}

const toView = (doc: FileDoc): FileView => ({
  id: doc._id.toHexString(),
  name: doc.name,
  size: doc.size,
  mime: doc.mime,
  url: `/api/files/${doc._id.toHexString()}`,
  ...(doc.thumbnailKey ? { thumbnailUrl: `/api/files/${doc._id.toHexString()}/thumbnail` } : {}),
});

const CLEANUP_EVERY_MS = 10 * 60 * 1000;

/**
 * File metadata and access. The bytes stream between the client, the
 * gateway and the storage backend; this service records them (after they are
 * stored), decides who may read them, makes thumbnails and removes files
 * that were never attached.
 */
export const createFileService: ServiceFactory = (app: AppContext) => {
  const files = fileModel(app.mongo!);
  const storage = () => {
    if (!app.storage) throw new ImError('IM_ERR_SERVICE_UNAVAILABLE', 'No file storage on this node');
    return app.storage;
  };
  let cleanupTimer: NodeJS.Timeout | undefined;

  /** The file, if the caller uploaded it or is in a converse where it was attached; 404 otherwise. */
  const readable = async (ctx: Ctx<{ fileId: string }>): Promise<FileDoc> => {
    const userId = callerId(ctx);
    // The id is validated (24 hex digits): the driver, without a mongoose query, is enough.
    const doc = await files.collection.findOne<FileDoc>({ _id: new Types.ObjectId(ctx.params.fileId) });
    if (!doc) throw new ImError('IM_ERR_NOT_FOUND', 'File not found');
    let allowed = doc.uploaderId.toHexString() === userId;
    for (const converseId of doc.converseIds) {
      if (allowed) break;
      allowed = Boolean(await ctx.call('chat.access', { converseId: converseId.toHexString(), userId }));
    }
    if (!allowed) throw new ImError('IM_ERR_NOT_FOUND', 'File not found');
    return doc;
  };

  const cleanup = async () => {
    const cutoff = new Date(Date.now() - app.config.fileUnattachedGraceSec * 1000);
    const stale = await files
      .find({ createdAt: { $lt: cutoff }, converseIds: { $size: 0 } })
      .limit(500)
      .lean<FileDoc[]>();
    for (const doc of stale) {
      // Metadata first: once it is gone the file is unreachable, whatever happens next.
      const { deletedCount } = await files.deleteOne({ _id: doc._id, converseIds: { $size: 0 } });
      if (deletedCount === 0) continue;
      await storage()
        .remove(doc.key)
        .catch(() => undefined);
      if (doc.thumbnailKey)
        await storage()
          .remove(doc.thumbnailKey)
          .catch(() => undefined);
    }
    return stale.length;
  };

  return {
    name: 'file',
    async started() {
      await files.createIndexes();
      cleanupTimer = setInterval(() => {
        void cleanup().catch((err: unknown) => app.logger.warn({ err }, 'file cleanup failed'));
      }, CLEANUP_EVERY_MS);
      cleanupTimer.unref();
    },
    stopped() {
      clearInterval(cleanupTimer);
    },
    actions: {
      /** Records a file whose bytes are already stored under `key`. */
      register: {
        visibility: 'public' as const,
        params: fileParams.register,
        async handler(
          ctx: Ctx<{ key: string; name: string; size: number; mime: string; sha256: string }>,
        ): Promise<FileView> {
          const { key, name, size, mime, sha256 } = ctx.params;
          const doc: FileDoc = {
            _id: new Types.ObjectId(),
            uploaderId: new Types.ObjectId(callerId(ctx)),
            name: sanitizeFileName(name),
            size,
            mime,
            sha256,
            key,
            converseIds: [],
            createdAt: new Date(),
          };
          // Straight to the driver: the parameters are validated already, and a mongoose
          // document (casting, defaults, change tracking) costs more CPU than the insert.
          await files.collection.insertOne(doc);
          const view = toView(doc);
          // Thumbnails are best effort: a lost event only means no preview. Only images that
          // can have one are announced, so other uploads cost no event and no second read.
          if (canThumbnail(mime, size))
            Promise.resolve(ctx.emit(EVENTS.fileUploaded, { fileId: view.id })).catch(() => undefined);
          return view;
        },
      },

      /** What the gateway needs to serve the bytes, for those who may read the file (see readable). */
      access: {
        visibility: 'public' as const,
        params: fileParams.access,
        async handler(ctx: Ctx<{ fileId: string }>): Promise<FileAccess> {
          const doc = await readable(ctx);
          return {
            ...toView(doc),
            key: doc.key,
            sha256: doc.sha256,
            ...(doc.thumbnailKey ? { thumbnailKey: doc.thumbnailKey } : {}),
          };
        },
      },

      /** GET /api/files/:fileId/info: the file's metadata, for exactly those who may download it. */
      info: {
        params: fileParams.info,
        async handler(ctx: Ctx<{ fileId: string }>): Promise<FileView> {
          return toView(await readable(ctx));
        },
      },

      /**
       * A send's files: every one must exist and be the sender's upload, else
       * nothing is attached (400); then the converse's members may read them.
       */
      attach: {
        visibility: 'public' as const,
        params: fileParams.attach,
        async handler(ctx: Ctx<ActionParams<'file.attach'>>): Promise<ActionResult<'file.attach'>> {
          const ids = [...new Set(ctx.params.fileIds)];
          const docs = await files.find({ _id: { $in: ids }, uploaderId: ctx.params.userId }).lean<FileDoc[]>();
          // Someone else's file is as unknown to the sender as a missing one.
          if (docs.length !== ids.length)
            throw new ImError('IM_ERR_NOT_FOUND', 'Attachments must be files you uploaded');
          await files.updateMany(
            { _id: { $in: ids } },
            { $addToSet: { converseIds: new Types.ObjectId(ctx.params.converseId) } },
          );
          return docs.map(toView);
        },
      },

      /** Removes files never attached and older than the grace period; returns how many (tests and operators). */
      cleanup: {
        visibility: 'public' as const,
        handler: () => cleanup(),
      },
    },
    events: {
      [EVENTS.fileUploaded]: {
        async handler(ctx: Context<{ fileId: string }>) {
          const doc = await files.findById(ctx.params.fileId).lean<FileDoc>();
          if (!doc || !canThumbnail(doc.mime, doc.size) || !app.storage) return;
          const thumbKey = `thumbs/${doc.key}`;
          try {
            await makeThumbnail(app.storage, doc.key, thumbKey);
            await files.updateOne({ _id: doc._id }, { $set: { thumbnailKey: thumbKey } });
          } catch (err) {
            app.logger.info({ err, fileId: ctx.params.fileId }, 'no thumbnail for this image');
            await app.storage.remove(thumbKey).catch(() => undefined);
          }
        },
      },
    },
  };
};
