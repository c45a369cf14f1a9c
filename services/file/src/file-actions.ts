import type { FileInfo, SignedFileUrl } from '@im/protocol';
import {
  callerId,
  emitToOne,
  EVENTS,
  ImError,
  type ActionParams,
  type ActionResult,
  type Params,
  type Ctx,
  notFound,
} from '@im/sdk';
import { Types } from 'mongoose';
import { readableFile } from './access.ts';
import type { FileDeps } from './deps.ts';
import type { FileDoc } from './models.ts';
import { sanitizeFileName } from './names.ts';
import { fileParams } from './params.ts';
import { removeUnattached } from './cleanup.ts';
import { removePreviewImage } from './link-preview/preview-image.ts';
import { canThumbnail } from './thumbnails.ts';
import { toFileAccess, toFileInfo } from './views.ts';

/** Recording files, who may read them, attaching them to messages. */
export const fileActions = ({ app, files, quota, signer }: FileDeps) => ({
  /** Records a file whose bytes are already stored under `key`. */
  register: {
    visibility: 'public' as const,
    params: fileParams.register,
    async handler(ctx: Ctx<ActionParams<'file.register'>>): Promise<ActionResult<'file.register'>> {
      const { key, name, size, mime, sha256, groupId } = ctx.params;
      const doc: FileDoc = {
        _id: new Types.ObjectId(),
        uploaderId: new Types.ObjectId(callerId(ctx)),
        name: sanitizeFileName(name),
        size,
        mime,
        sha256,
        key,
        converseIds: [],
        ...(groupId ? { groupIds: [new Types.ObjectId(groupId)] } : {}),
        createdAt: new Date(),
      };
      // Counted against the quota first (atomically), given back if the record fails.
      await quota.reserve(doc.uploaderId, size);
      try {
        // Straight to the driver: the parameters are validated already, and a mongoose
        // document (casting, defaults, change tracking) costs more CPU than the insert.
        await files.collection.insertOne(doc);
      } catch (err) {
        await quota.release(doc.uploaderId, size);
        throw err;
      }
      const info = toFileInfo(doc);
      // Thumbnails are best effort: a lost event only means no preview. Only images that
      // can have one are announced, so other uploads cost no event and no second read.
      if (canThumbnail(mime, size)) emitToOne(ctx, EVENTS.fileUploaded, { fileId: info.id });
      return info;
    },
  },

  /** What the gateway needs to serve the bytes, for those who may read the file. */
  access: {
    visibility: 'public' as const,
    params: fileParams.access,
    async handler(ctx: Ctx<ActionParams<'file.access'>>): Promise<ActionResult<'file.access'>> {
      return toFileAccess(await readableFile(files, ctx));
    },
  },

  /** GET /api/files/:fileId/url: a signed URL, for exactly those who may download the file. */
  url: {
    params: fileParams.url,
    async handler(ctx: Ctx<Params<typeof fileParams.url>>): Promise<SignedFileUrl> {
      const doc = await readableFile(files, ctx);
      const variant = ctx.params.variant ?? 'file';
      if (variant === 'thumbnail' && !doc.thumbnailKey)
        throw new ImError('IM_ERR_NOT_FOUND', 'This file has no thumbnail');
      return signer.sign(ctx.params.fileId, variant);
    },
  },

  /** For the gateway, once it has checked a signed URL: the signature is the permission. */
  locate: {
    visibility: 'public' as const,
    params: fileParams.locate,
    async handler(ctx: Ctx<ActionParams<'file.locate'>>): Promise<ActionResult<'file.locate'>> {
      const doc = await files.collection.findOne<FileDoc>({ _id: new Types.ObjectId(ctx.params.fileId) });
      if (!doc) throw notFound('file');
      return toFileAccess(doc);
    },
  },

  /** A user's storage use and quota (GET /api/users/me shows it; uploads check it before streaming). */
  usage: {
    visibility: 'public' as const,
    params: fileParams.usage,
    handler(ctx: Ctx<ActionParams<'file.usage'>>): Promise<ActionResult<'file.usage'>> {
      return quota.of(ctx.params.userId);
    },
  },

  /** GET /api/files/:fileId/info: the file's metadata, for exactly those who may download it. */
  info: {
    params: fileParams.info,
    async handler(ctx: Ctx<Params<typeof fileParams.info>>): Promise<FileInfo> {
      return toFileInfo(await readableFile(files, ctx));
    },
  },

  /**
   * A send's files: every one must exist and be the sender's upload, else
   * nothing is attached (404, as for any id the sender cannot see); then the
   * converse's members may read them.
   */
  attach: {
    visibility: 'public' as const,
    params: fileParams.attach,
    async handler(ctx: Ctx<ActionParams<'file.attach'>>): Promise<ActionResult<'file.attach'>> {
      const ids = [...new Set(ctx.params.fileIds)];
      const docs = await files.find({ _id: { $in: ids }, uploaderId: ctx.params.userId }).lean<FileDoc[]>();
      if (docs.length !== ids.length) throw new ImError('IM_ERR_NOT_FOUND', 'Attachments must be files you uploaded');
      await files.updateMany(
        { _id: { $in: ids } },
        { $addToSet: { converseIds: new Types.ObjectId(ctx.params.converseId) } },
      );
      return docs.map(toFileInfo);
    },
  },

  /**
   * A forwarded message's files: readable in the converse it is forwarded
   * to, as if attached there (the chat service checked that the forwarder
   * reads the original). Only files attached where the original is.
   */
  share: {
    visibility: 'public' as const,
    params: fileParams.share,
    async handler(ctx: Ctx<ActionParams<'file.share'>>): Promise<ActionResult<'file.share'>> {
      const ids = [...new Set(ctx.params.fileIds)];
      const from = new Types.ObjectId(ctx.params.fromConverseId);
      const docs = await files.find({ _id: { $in: ids }, converseIds: from }).lean<FileDoc[]>();
      if (docs.length !== ids.length) throw notFound('file');
      await files.updateMany(
        { _id: { $in: ids } },
        { $addToSet: { converseIds: new Types.ObjectId(ctx.params.toConverseId) } },
      );
      return docs.map(toFileInfo);
    },
  },

  /** A link preview's image, once its preview or message is gone (chat calls it); other files are left alone. */
  removePreviewImage: {
    visibility: 'public' as const,
    params: fileParams.removePreviewImage,
    async handler(ctx: Ctx<ActionParams<'file.removePreviewImage'>>): Promise<ActionResult<'file.removePreviewImage'>> {
      return removePreviewImage(app, files, quota, ctx.params.fileId);
    },
  },

  /** Removes files never attached and older than the grace period; returns how many (tests and operators). */
  cleanup: {
    visibility: 'public' as const,
    handler: (): Promise<ActionResult<'file.cleanup'>> => removeUnattached(app, files, quota),
  },
});
