import type { IncomingMessage } from 'node:http';
import { ImError, invalid } from '@im/sdk';

/**
 * Reads a JSON object body of at most `limit` bytes. Missing body: {}.
 * Over the limit: 413 as soon as it is known (the rest is not read).
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'];
  const body = await readBody(req, limit);
  if (body.length === 0) return {};
  if (!type || !/^application\/json\s*(;|$)/i.test(type)) {
    throw new ImError('IM_ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
  }
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw new ImError('IM_ERR_BAD_JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid('The body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/** The body as text, of at most `limit` bytes (413 beyond), for checking a signature over its exact bytes. */
export async function readTextBody(req: IncomingMessage, limit: number): Promise<string> {
  return (await readBody(req, limit)).toString('utf8');
}

/** The body's bytes, at most `limit` (413 as soon as it is known to be more: the rest is not read). */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

const tooLarge = (limit: number) => new ImError('IM_ERR_PAYLOAD_TOO_LARGE', `The body exceeds ${limit} bytes`);

/** Query string as an object; a repeated key keeps its last value. */
export function readQuery(url: string | undefined): Record<string, string> {
  const at = url?.indexOf('?') ?? -1;
  if (!url || at < 0) return {};
  return Object.fromEntries(new URLSearchParams(url.slice(at + 1)));
}
