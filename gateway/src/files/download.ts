import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { FileAccess } from '@im/protocol';
import {
  call,
  FileUrlSigner,
  ImError,
  isInlineSafe,
  OBJECT_ID,
  type AppContext,
  type ByteRange,
  type FileVariant,
  notFound,
  noFileStorage,
  unauthorized,
} from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import type { Authenticator } from '../auth/authenticator.ts';
import { readQuery } from '../http/body.ts';

/** One `bytes=` range (multiple ranges are served whole). Null: no usable range header. */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

const disposition = (kind: 'inline' | 'attachment', name: string) =>
  `${kind}; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * GET /api/files/:id and its thumbnail: access checked by the file service
 * (bearer token) or by the URL's signature (GET /api/files/:id/url makes
 * them: browsers cannot put a header on <img src>, and no access token ever
 * goes in a URL); bytes streamed from storage with ETag, Range and
 * safe-serving headers.
 */
export function createDownloadHandler(
  app: AppContext,
  broker: ServiceBroker,
  auth: Authenticator,
  variant: FileVariant,
) {
  const signer = new FileUrlSigner(app.config.secret, app.config.fileUrlTtlSec);
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    params: Record<string, string | undefined>,
  ): Promise<void> => {
    const fileId = params.fileId ?? '';
    const { exp, sig } = readQuery(req.url);
    let file: FileAccess;
    if (sig !== undefined && !req.headers.authorization) {
      if (!OBJECT_ID.test(fileId) || !signer.verify(fileId, variant, exp, sig))
        throw unauthorized('This file link is invalid or has expired; ask for a new one');
      file = await call(broker, 'file.locate', { fileId });
    } else {
      const userId = await auth.fromRequest(req);
      file = await call(broker, 'file.access', { fileId }, { meta: { user: { id: userId } } });
    }
    const storage = app.storage;
    if (!storage) throw noFileStorage();

    const thumbnail = variant === 'thumbnail';
    if (thumbnail && !file.thumbnailKey) throw new ImError('IM_ERR_NOT_FOUND', 'This file has no thumbnail');
    const key = thumbnail ? file.thumbnailKey! : file.key;
    const mime = thumbnail ? 'image/webp' : file.mime;
    const size = thumbnail ? await storage.size(key) : file.size;
    if (size === null) throw notFound('file');
    const etag = `"${file.sha256.slice(0, 32)}${thumbnail ? '-t' : ''}"`;

    const headers: Record<string, string | number> = {
      'content-type': mime.startsWith('text/') ? `${mime}; charset=utf-8` : mime,
      'x-content-type-options': 'nosniff',
      // Even a file a browser renders can run nothing and load nothing.
      'content-security-policy': "default-src 'none'; img-src 'self'; media-src 'self'; sandbox",
      'content-disposition': disposition(
        isInlineSafe(mime) ? 'inline' : 'attachment',
        thumbnail ? `${file.name}.webp` : file.name,
      ),
      'cache-control': 'private, max-age=86400',
      'accept-ranges': 'bytes',
      etag,
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    const range = parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') {
      res.setHeader('content-range', `bytes */${size}`);
      throw new ImError('IM_ERR_RANGE_NOT_SATISFIABLE');
    }
    const body = await storage.get(key, range ?? undefined);
    if (range) {
      res.writeHead(206, {
        ...headers,
        'content-range': `bytes ${range.start}-${range.end}/${size}`,
        'content-length': range.end - range.start + 1,
      });
    } else {
      res.writeHead(200, { ...headers, 'content-length': size });
    }
    // A backend that can write the bytes out itself (local disk) does so with buffers it reuses.
    await (body.sendTo ? body.sendTo(res) : pipeline(body, res)).catch(() => res.destroy());
  };
}
