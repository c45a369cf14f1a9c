import type { AppContext, EventContext, ObjectStorage } from '@im/sdk';
import { PassThrough } from 'node:stream';
import sharp from 'sharp';
import type { FileDoc, FileModel } from './models.ts';

/** Images sharp can read and that are worth a preview. */
const THUMBNAIL_SOURCES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/tiff']);
const MAX_SOURCE_BYTES = 50 * 1024 * 1024;
const SIZE = 320;

export const canThumbnail = (mime: string, size: number) => THUMBNAIL_SOURCES.has(mime) && size <= MAX_SOURCE_BYTES;

/** Streams the image through sharp into a WebP of at most 320x320 stored at `thumbKey`. */
export async function makeThumbnail(storage: ObjectStorage, key: string, thumbKey: string): Promise<void> {
  const source = await storage.get(key);
  const resize = sharp({ limitInputPixels: 100_000_000, failOn: 'error' })
    .rotate()
    .resize(SIZE, SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 });
  const out = new PassThrough();
  source.on('error', (err) => out.destroy(err));
  resize.on('error', (err) => out.destroy(err));
  source.pipe(resize).pipe(out);
  await storage.put(thumbKey, out, 'image/webp');
}

/**
 * On `file.uploaded` (one file node gets each): makes the image's thumbnail
 * and records it. A failure only means no preview.
 */
export const thumbnailOnUpload =
  (app: AppContext, files: FileModel) =>
  async (ctx: EventContext<'file.uploaded'>): Promise<void> => {
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
  };
