import type { Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ImError } from '@im/sdk';
import { etagMatches } from '../http/etag.ts';
import type { Router } from '../http/router.ts';

/** First path segments that belong to the server, never to the client (their unknown paths stay API 404s). */
const SERVER_PATHS = new Set(['api', 'socket.io', 'health', 'ready', 'metrics', 'p', 'feeds', 'hooks']);

export const WEB_CLIENT_CSP = [
  "default-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self' ws: wss:",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HTML_HEADERS = {
  'content-security-policy': WEB_CLIENT_CSP,
  'referrer-policy': 'no-referrer',
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

export const contentTypeOf = (name: string): string =>
  CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';

/**
 * The decoded segments of a request path, or null when it may not name a
 * client file: malformed escapes, `.` and `..`, dotfiles, and separators or
 * NUL hidden in escapes (`%2F`, `%5C`, `%00`) are all refused, so a path can
 * only go down from the client directory. Empty segments (`//`) are dropped.
 */
export function clientPathSegments(url: string): string[] | null {
  const end = url.search(/[?#]/);
  const path = end < 0 ? url : url.slice(0, end);
  if (!path.startsWith('/')) return null;
  const segments: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    let name: string;
    try {
      name = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (name.startsWith('.') || /[/\\\0]/.test(name)) return null;
    segments.push(name);
  }
  return segments;
}

/** True when the path is the server's own (/api, /socket.io, /health, /ready, /metrics, /p, /feeds and below), as sent or decoded. */
function isServerPath(url: string): boolean {
  const first = /^\/([^/?#]*)/.exec(url)?.[1] ?? '';
  if (SERVER_PATHS.has(first)) return true;
  try {
    return SERVER_PATHS.has(decodeURIComponent(first));
  } catch {
    return false;
  }
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Web client not built</title></head>
<body>
<h1>The web client is not built</h1>
<p>This server is set to serve the web client, but its build output has no <code>index.html</code> yet.</p>
<p>Build it with <code>npm run build -w @im/client</code> (or start the server with <code>bash scripts/run.sh</code>, which builds it), then reload this page.</p>
<p>The API itself is up: <a href="/health">/health</a>, <a href="/api/openapi.json">/api/openapi.json</a>.</p>
</body>
</html>
`;

type Opened = { handle: FileHandle; stat: Stats };

/** Opens a regular file; null when there is none (missing, a directory, a path through a file). */
async function openFile(path: string): Promise<Opened | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'ENAMETOOLONG') return null;
    throw err;
  }
  try {
    const stat = await handle.stat();
    if (stat.isFile()) return { handle, stat };
  } catch (err) {
    await handle.close();
    throw err;
  }
  await handle.close();
  return null;
}

/**
 * Answers with an opened file: 304 when the client has it, headers only for
 * HEAD, else the bytes streamed from the handle (which the stream closes).
 */
async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  { handle, stat }: Opened,
  name: string,
  immutable: boolean,
): Promise<void> {
  const contentType = contentTypeOf(name);
  const headers: Record<string, string | number> = {
    'content-type': contentType,
    'x-content-type-options': 'nosniff',
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
    ...(contentType.startsWith('text/html') ? HTML_HEADERS : {}),
  };
  if (etagMatches(req.headers['if-none-match'], headers.etag as string)) {
    await handle.close();
    res.writeHead(304, headers).end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': stat.size });
  if (req.method === 'HEAD') {
    await handle.close();
    res.end();
    return;
  }
  await pipeline(handle.createReadStream(), res).catch(() => res.destroy());
}

function sendNotBuilt(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(503, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(NOT_BUILT_PAGE),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...HTML_HEADERS,
  });
  res.end(req.method === 'HEAD' ? undefined : NOT_BUILT_PAGE);
}

/**
 * Serves the built web client from `dir` for GET and HEAD on every path the
 * server does not own. A path names a file inside `dir` or nothing (see
 * clientPathSegments); `/assets/*` (content-hashed names) is cached for a
 * year, everything else (index.html, sw.js, the manifest) is revalidated by
 * ETag. A path without an extension that names no file is a client route and
 * gets index.html; a missing file with an extension, or anything under
 * /assets/, is a 404. Without index.html, the client routes answer 503 with a
 * page saying how to build the client.
 */
export function registerWebClientRoutes(router: Router, dir: string): void {
  const root = resolve(dir);
  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    if (isServerPath(url)) return router.noRoute(req, res);
    const segments = clientPathSegments(url);
    if (!segments) throw new ImError('IM_ERR_NOT_FOUND');
    const last = segments.at(-1);
    if (last !== undefined) {
      const path = join(root, ...segments);
      if (!path.startsWith(root + sep)) throw new ImError('IM_ERR_NOT_FOUND');
      const file = await openFile(path);
      if (file) return sendFile(req, res, file, last, segments[0] === 'assets' && segments.length > 1);
      if (extname(last) !== '' || segments[0] === 'assets') throw new ImError('IM_ERR_NOT_FOUND');
    }
    // `/` and client routes such as /g/abc/p/def: the app, which routes itself.
    const index = await openFile(join(root, 'index.html'));
    if (!index) return sendNotBuilt(req, res);
    return sendFile(req, res, index, 'index.html', false);
  };
  // Files from disk, no broker or database behind them: no traces.
  router.on('GET', '/*', handler, { traced: false });
  router.on('HEAD', '/*', handler, { traced: false });
}
