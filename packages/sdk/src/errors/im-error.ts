import { Errors } from 'moleculer';
import { ERROR_CATALOG, isErrorCode, type ErrorCode } from './catalog.ts';

/**
 * An error meant for the client. Built on MoleculerClientError so it crosses
 * the transporter intact: `type` carries the catalog code, `code` the status.
 */
export class ImError extends Errors.MoleculerClientError {
  constructor(code: ErrorCode, message?: string, data?: unknown) {
    super(message ?? ERROR_CATALOG[code].message, ERROR_CATALOG[code].status, code, data);
    this.name = 'ImError';
  }
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

export interface HttpError {
  status: number;
  body: ErrorBody;
  /** Server-side failures are logged; client errors are not. */
  internal: boolean;
}

/** Maps anything thrown by a handler or a broker call to the public error shape. */
export function toHttpError(err: unknown): HttpError {
  const e = (err ?? {}) as { type?: unknown; message?: unknown; data?: unknown; name?: unknown };
  if (isErrorCode(e.type)) {
    const code = e.type;
    return {
      status: ERROR_CATALOG[code].status,
      body: { error: { code, message: String(e.message ?? ERROR_CATALOG[code].message), ...details(e.data) } },
      internal: ERROR_CATALOG[code].status >= 500,
    };
  }
  // Parameter validation by the broker's validator.
  if (e.type === 'VALIDATION_ERROR') {
    return fromCode('IM_ERR_VALIDATION', undefined, validationDetails(e.data));
  }
  if (e.name === 'StorageUnavailableError') {
    return { ...fromCode('IM_ERR_SERVICE_UNAVAILABLE', 'File storage is unavailable, retry later'), internal: true };
  }
  // ioredis gave up on a command while Redis was out of reach (a failover in progress, a restart).
  if (e.name === 'MaxRetriesPerRequestError') {
    return { ...fromCode('IM_ERR_SERVICE_UNAVAILABLE', 'Redis is unavailable, retry later'), internal: true };
  }
  if (e.type === 'SERVICE_NOT_FOUND' || e.type === 'SERVICE_NOT_AVAILABLE' || e.name === 'RequestTimeoutError') {
    return { ...fromCode('IM_ERR_SERVICE_UNAVAILABLE'), internal: true };
  }
  return fromCode('IM_ERR_INTERNAL');
}

function fromCode(code: ErrorCode, message?: string, data?: unknown): HttpError {
  const { status } = ERROR_CATALOG[code];
  return {
    status,
    body: { error: { code, message: message ?? ERROR_CATALOG[code].message, ...details(data) } },
    internal: status >= 500,
  };
}

const details = (data: unknown) => (data === undefined || data === null ? {} : { details: data });

/** Which field failed and why; never the submitted value (it may be a password). */
function validationDetails(data: unknown): unknown {
  if (!Array.isArray(data)) return undefined;
  return data.map((item: { field?: unknown; type?: unknown; message?: unknown }) =>
    Object.fromEntries(
      Object.entries({ field: item.field, type: item.type, message: item.message }).filter(([, v]) => v !== undefined),
    ),
  );
}
