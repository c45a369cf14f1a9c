import type { AppContext, EventContext, ObjectStorage } from '@im/sdk';
import { PassThrough } from 'node:stream';
import pLimit from 'p-limit';
import sharp from 'sharp';
import type { FileDoc, FileModel } from './models.ts';

/** Images sharp can read and that are worth a preview. */
const THUMBNAIL_SOURCES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/tiff']);
const MAX_SOURCE_BYTES = 50 * 1024 * 1024;
/** Larger images are stored but get no preview: decoding them costs more than a preview is worth. */
export const MAX_SOURCE_PIXELS = 50_000_000;
const SIZE = 320;
/** Previews waiting past this many are skipped (an upload burst must not queue without end). */
const MAX_WAITING = 500;

export const canThumbnail = (mime: string, size: number) => THUMBNAIL_SOURCES.has(mime) && size <= MAX_SOURCE_BYTES;

/** The image's pixel count from its header alone (sharp reads no pixel data for metadata). */
async function pixelsOf(storage: ObjectStorage, key: string): Promise<number> {
  const source = await storage.get(key);
  const probe = sharp({ limitInputPixels: false });
  source.on('error', (err) => probe.destroy(err));
  source.pipe(probe);
  try {
    const { width = 0, height = 0, pages = 1 } = await probe.metadata();
    return width * height * Math.max(1, pages);
  } finally {
    source.unpipe(probe);
    source.destroy();
  }
}

/** Streams the image through sharp into a WebP of at most 320x320 stored at `thumbKey`. */
export async function makeThumbnail(storage: ObjectStorage, key: string, thumbKey: string): Promise<boolean> {
  if ((await pixelsOf(storage, key)) > MAX_SOURCE_PIXELS) return false;
  const source = await storage.get(key);
  const resize = sharp({ limitInputPixels: MAX_SOURCE_PIXELS, failOn: 'error' })
    .rotate()
    .resize(SIZE, SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 });
  const out = new PassThrough();
  source.on('error', (err) => out.destroy(err));
  resize.on('error', (err) => out.destroy(err));
  source.pipe(resize).pipe(out);
  await storage.put(thumbKey, out, 'image/webp');
  return true;
}

/**
 * On `file.uploaded` (one file node gets each): queues the image's thumbnail.
 * The queue runs one at a time and holds a bounded backlog, so an upload
 * burst cannot take every libuv thread or the memory of many decodes at
 * once; past the backlog a preview is skipped. A failure only means no
 * preview.
 */
export const thumbnailOnUpload = (app: AppContext, files: FileModel) => {
  const oneAtATime = pLimit(1);
  const make = async (fileId: string) => {
    const doc = await files.findById(fileId).lean<FileDoc>();
    if (!doc || !canThumbnail(doc.mime, doc.size) || !app.storage) return;
    const thumbKey = `thumbs/${doc.key}`;
    try {
      if (!(await makeThumbnail(app.storage, doc.key, thumbKey))) {
        app.logger.info({ fileId }, `no thumbnail: the image has over ${MAX_SOURCE_PIXELS} pixels`);
        return;
      }
      await files.updateOne({ _id: doc._id }, { $set: { thumbnailKey: thumbKey } });
    } catch (err) {
      app.logger.info({ err, fileId }, 'no thumbnail for this image');
      await app.storage.remove(thumbKey).catch(() => undefined);
    }
  };
  return async (ctx: EventContext<'file.uploaded'>): Promise<void> => {
    const { fileId } = ctx.params;
    if (oneAtATime.pendingCount >= MAX_WAITING) {
      app.logger.warn({ fileId }, 'thumbnail queue full: no preview for this image');
      return;
    }
    // Not awaited: the event handler returns at once; make() records its own failures.
    void oneAtATime(() => make(fileId)).catch(() => undefined);
  };
};
