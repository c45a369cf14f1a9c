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
export function sendError(res: ServerResponse, err: unknown): { status: number; internal: boolean } {
  const mapped = toHttpError(err);
  if (!res.headersSent) sendJson(res, mapped.status, mapped.body);
  else res.destroy();
  return { status: mapped.status, internal: mapped.internal };
}

export const errorOf = (code: ErrorCode, message?: string): ImError => new ImError(code, message);
