import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { etagMatches } from '../http/etag.ts';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Bodies smaller than this are sent as they are: compressing them saves less than its headers. */
const COMPRESS_FROM_BYTES = 512;

/**
 * Compression levels of a render. Every render is a cache miss an anonymous
 * client can cause, so they are cheap ones: on chat pages brotli 5 costs a
 * twentieth of brotli 9's CPU for about 1% more bytes, and gzip 6 is zlib's
 * default, as small as 9 on such text.
 */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

type Encoding = 'br' | 'gzip' | 'identity';

/**
 * An answer made once and sent many times: the bytes, their gzip and brotli
 * forms, and every header, all prepared when it is rendered, so sending it
 * costs no work but the write.
 */
export interface PreparedResponse {
  etag: string;
  lastModified: string;
  /** Epoch seconds of Last-Modified, for If-Modified-Since. */
  modifiedSec: number;
  bodies: Record<Encoding, Buffer>;
  headers: Record<Encoding, Record<string, string>>;
}

export async function prepareResponse(
  body: string,
  contentType: string,
  cacheControl: string,
  extraHeaders: Record<string, string> = {},
): Promise<PreparedResponse> {
  const identity = Buffer.from(body);
  const big = identity.length >= COMPRESS_FROM_BYTES;
  const [br, gz] = big
    ? await Promise.all([
        brotli(identity, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
          },
        }),
        gzipped(identity, { level: GZIP_LEVEL }),
      ])
    : [identity, identity];
  // Weak: the same content in every encoding shares it (Vary names the encoding).
  const etag = `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
  const now = new Date();
  const lastModified = now.toUTCString();
  const common = {
    'content-type': contentType,
    'cache-control': cacheControl,
    etag,
    'last-modified': lastModified,
    vary: 'Accept-Encoding',
    'x-content-type-options': 'nosniff',
    ...extraHeaders,
  };
  const headersOf = (buffer: Buffer, encoding?: string) => ({
    ...common,
    ...(encoding ? { 'content-encoding': encoding } : {}),
    'content-length': String(buffer.length),
  });
  return {
    etag,
    lastModified,
    modifiedSec: Math.floor(now.getTime() / 1000),
    bodies: { br, gzip: gz, identity },
    headers: {
      br: big ? headersOf(br, 'br') : headersOf(identity),
      gzip: big ? headersOf(gz, 'gzip') : headersOf(identity),
      identity: headersOf(identity),
    },
  };
}

/** Accept-Encoding values seen, and what each chose (clients send few distinct ones). */
const chosen = new Map<string, Encoding>();
const MAX_REMEMBERED = 256;

/** The best encoding the client accepts: brotli, then gzip, else none (q=0 refuses). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const known = chosen.get(acceptEncoding);
  if (known) return known;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const weight = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    q.set(name.trim(), weight === undefined ? 1 : Number(weight));
  }
  const accepts = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  const encoding: Encoding = accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : 'identity';
  if (chosen.size < MAX_REMEMBERED) chosen.set(acceptEncoding, encoding);
  return encoding;
}

/**
 * Whether the client's copy is current: If-None-Match decides when sent
 * (If-Modified-Since is then ignored, RFC 9110), else If-Modified-Since.
 */
export function isNotModified(req: IncomingMessage, prepared: PreparedResponse): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) return etagMatches(ifNoneMatch, prepared.etag);
  const since = req.headers['if-modified-since'];
  if (since === undefined) return false;
  const sinceMs = Date.parse(since);
  return Number.isFinite(sinceMs) && prepared.modifiedSec <= Math.floor(sinceMs / 1000);
}

/** Sends a prepared answer: 304 when the client has it, headers only for HEAD, else the chosen encoding. */
export function sendPrepared(req: IncomingMessage, res: ServerResponse, prepared: PreparedResponse): void {
  if (isNotModified(req, prepared)) {
    const { etag, lastModified } = prepared;
    const h = prepared.headers.identity;
    res.writeHead(304, {
      etag,
      'last-modified': lastModified,
      'cache-control': h['cache-control']!,
      vary: 'Accept-Encoding',
    });
    res.end();
    return;
  }
  const encoding = chooseEncoding(req.headers['accept-encoding']);
  res.writeHead(200, prepared.headers[encoding]);
  res.end(req.method === 'HEAD' ? undefined : prepared.bodies[encoding]);
}
