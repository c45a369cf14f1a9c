import type { ObjectStorage } from '@im/sdk';
import { PassThrough } from 'node:stream';
import sharp from 'sharp';

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
