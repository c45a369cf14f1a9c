import type { ApiError } from '@im/protocol';

/** A failed API call: the server's error code and message, or a network failure (status 0). */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = code;
  }

  static async fromResponse(res: Response): Promise<ApiRequestError> {
    let body: Partial<ApiError> | undefined;
    try {
      body = (await res.json()) as Partial<ApiError>;
    } catch {
      body = undefined;
    }
    const code = body?.error?.code ?? `HTTP_${res.status}`;
    const message = body?.error?.message ?? (res.statusText || `Request failed (${res.status})`);
    return new ApiRequestError(res.status, code, message);
  }
}

export const networkError = (): ApiRequestError =>
  new ApiRequestError(0, 'NETWORK', 'The server cannot be reached. Check your connection.');

/** A message fit to show to the user for any thrown value. */
export function describeError(err: unknown): string {
  if (err instanceof ApiRequestError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
