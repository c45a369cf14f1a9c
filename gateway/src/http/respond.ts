import type { ServerResponse } from 'node:http';
import { toHttpError, type ErrorCode, ImError } from '@im/sdk';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

export function sendText(res: ServerResponse, status: number, body: string, contentType: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Maps any error to the catalog shape; returns the mapped status. */
export function sendError(
  res: ServerResponse,
  err: unknown,
  headers: Record<string, string> = {},
): { status: number; internal: boolean } {
  const mapped = toHttpError(err);
  if (!res.headersSent)
    sendJson(res, mapped.status, mapped.body, {
      ...errorHeaders(mapped.status, mapped.body.error.details),
      ...headers,
    });
  else res.destroy();
  return { status: mapped.status, internal: mapped.internal };
}

export const errorOf = (code: ErrorCode, message?: string): ImError => new ImError(code, message);

function errorHeaders(status: number, details: unknown): Record<string, string> {
  if (status === 401) return { 'www-authenticate': 'Bearer' };
  if (status === 413) return { connection: 'close' };
  const retryAfter = (details as { retryAfterSec?: unknown } | undefined)?.retryAfterSec;
  if (status === 429 && typeof retryAfter === 'number') return { 'retry-after': String(retryAfter) };
  return {};
}
