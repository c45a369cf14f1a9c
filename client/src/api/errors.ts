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

/**
 * Sentences for the codes a person runs into in normal use; the server's own
 * messages are terse and meant for developers.
 */
const SENTENCES: Record<string, string> = {
  IM_ERR_BANNED: 'You are banned from this group.',
  IM_ERR_MUTED: 'You are muted in this group for now.',
  IM_ERR_REGISTRATION_CLOSED: 'Registration is closed on this server.',
  IM_ERR_ACCOUNT_DEACTIVATED: 'This account has been deactivated by a server administrator.',
  IM_ERR_NO_PASSWORD: 'This account has no password: it signs in with single sign-on.',
};

/** The human sentence for an error code, or the server's message when there is none. */
export function sentenceFor(code: string, message: string): string {
  return SENTENCES[code] ?? message;
}

/** A message fit to show to the user for any thrown value. */
export function describeError(err: unknown): string {
  if (err instanceof ApiRequestError) return sentenceFor(err.code, err.message);
  if (err instanceof Error) return err.message;
  return String(err);
}
