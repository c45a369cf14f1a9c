import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { LinkPreview, Message } from '@im/protocol';
import { call, firstLink, sniffMime, type AppContext, type EventContext, type OutboundGuard } from '@im/sdk';
import { Types } from 'mongoose';
import { storageOf } from '../deps.ts';
import type { FileDoc, FileModel } from '../models.ts';
import type { Quota } from '../quota.ts';
import { removePreviewImage } from './preview-image.ts';

import { readPageMeta } from './page-meta.ts';

/** The largest page read; a larger one gets no preview. */
export const PREVIEW_PAGE_MAX_BYTES = 1024 * 1024;
/** The largest preview image kept; a larger one is left out of the card. */
export const PREVIEW_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/** Redirects followed from a link to its page (http to https, a moved page). */
const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Image types a browser draws inline (SVG never: it can carry script). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

const HEADERS = {
  'user-agent': 'im-link-preview/1',
  accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
};

/**
 * Makes the card of a new message's first link: the page and its image are
 * fetched through the outbound guard (public addresses only, unless
 * OUTBOUND_ALLOW says otherwise; capped in size and time), the image is
 * stored here as a file the converse's members may read, and chat sets the
 * card on the message (message:updated). Every failure only means no card.
 * The image is the author's file: it counts against their quota (a card
 * without its image when it would pass it), and goes with its preview or
 * message (chat asks for that: file.removePreviewImage).
 */
export function linkPreviewOnMessage(app: AppContext, files: FileModel, quota: Quota, guard: OutboundGuard) {
  /**
   * The bytes of a 200 answer within `max` and the address that gave them,
   * or null (refused, failed, other status, too large). Redirects are
   * followed a few times, each hop a new request through the guard, so a
   * public address cannot send the server inside.
   */
  const fetchCapped = async (start: URL, max: number, accept?: string) => {
    let url = start;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const res = await guard.request(url, {
        headers: accept ? { ...HEADERS, accept } : HEADERS,
        maxBytes: max + 1,
      });
      const location = res.headers.location;
      if (REDIRECTS.has(res.status) && typeof location === 'string') {
        url = new URL(location, url);
        continue;
      }
      if (res.status !== 200 || res.body.length > max) return null;
      return { ...res, url };
    }
    return null;
  };

  const storeImage = async (message: Message, pageUrl: URL, image: string): Promise<string | undefined> => {
    let url: URL;
    try {
      url = new URL(image, pageUrl);
    } catch {
      return undefined;
    }
    const res = await fetchCapped(url, PREVIEW_IMAGE_MAX_BYTES, 'image/*');
    if (!res) return undefined;
    const mime = await sniffMime(res.body.subarray(0, 4100));
    if (!IMAGE_TYPES.has(mime)) return undefined;
    const now = new Date();
    const key = `p/${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}`;
    const doc: FileDoc = {
      _id: new Types.ObjectId(),
      // The server made this copy for the author's message: the author's file, in the author's quota.
      uploaderId: new Types.ObjectId(message.authorId),
      name: `preview.${mime.slice(6)}`,
      size: res.body.length,
      mime,
      sha256: createHash('sha256').update(res.body).digest('hex'),
      key,
      converseIds: [new Types.ObjectId(message.converseId)],
      previewOf: new Types.ObjectId(message.id),
      createdAt: now,
    };
    // Counted first (IM_ERR_QUOTA: a card without its image), given back if storing fails.
    await quota.reserve(doc.uploaderId, doc.size);
    try {
      await storageOf(app).put(key, Readable.from([res.body]), mime);
      await files.collection.insertOne(doc);
    } catch (err) {
      await quota.release(doc.uploaderId, doc.size);
      await storageOf(app)
        .remove(key)
        .catch(() => undefined);
      throw err;
    }
    return doc._id.toHexString();
  };

  const build = async (message: Message, url: URL): Promise<LinkPreview | null> => {
    const page = await fetchCapped(url, PREVIEW_PAGE_MAX_BYTES);
    const type = String(page?.headers['content-type'] ?? '');
    if (!page || !/^(text\/html|application\/xhtml\+xml)/i.test(type)) return null;
    const meta = readPageMeta(page.body.toString('utf8'));
    if (!meta.title) return null;
    // Relative image addresses are relative to where the page was finally found.
    const imageFileId = meta.image ? await storeImage(message, page.url, meta.image).catch(() => undefined) : undefined;
    return {
      url: url.href,
      title: meta.title,
      ...(meta.description ? { description: meta.description } : {}),
      ...(meta.siteName ? { siteName: meta.siteName } : {}),
      ...(imageFileId ? { imageFileId } : {}),
    };
  };

  return async (ctx: EventContext<'chat.message.created'>): Promise<void> => {
    const { message } = ctx.params;
    const url = firstLink(message.content);
    if (!url || message.deleted) return;
    try {
      if (!(await call(ctx, 'chat.claimPreview', { messageId: message.id, url: url.href }))) return;
      const preview = await build(message, url);
      if (!preview) return;
      const set = await call(ctx, 'chat.setPreview', { messageId: message.id, preview });
      // Deleted, edited or its preview removed while the page was fetched: the image goes at once.
      if (!set && preview.imageFileId) await removePreviewImage(app, files, quota, preview.imageFileId);
    } catch (err) {
      app.logger.debug({ err, url: url.href }, 'no link preview');
    }
  };
}
