import type { ApiError } from '@im/protocol';
import { i18n, t } from '../i18n/i18n.ts';
import type { MessageKey } from '../i18n/locales/en/index.ts';

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
    const message = body?.error?.message ?? (res.statusText || t('errors.requestFailed', { status: res.status }));
    return new ApiRequestError(res.status, code, message);
  }
}

export const networkError = (): ApiRequestError => new ApiRequestError(0, 'NETWORK', t('errors.NETWORK'));

/** The error codes the app has a sentence for, in every language. */
const SENTENCES = {
  NETWORK: 'errors.NETWORK',
  IM_ERR_VALIDATION: 'errors.IM_ERR_VALIDATION',
  IM_ERR_BAD_JSON: 'errors.IM_ERR_BAD_JSON',
  IM_ERR_LINK_INVALID: 'errors.IM_ERR_LINK_INVALID',
  IM_ERR_UNAUTHORIZED: 'errors.IM_ERR_UNAUTHORIZED',
  IM_ERR_INVALID_CREDENTIALS: 'errors.IM_ERR_INVALID_CREDENTIALS',
  IM_ERR_ACCOUNT_DEACTIVATED: 'errors.IM_ERR_ACCOUNT_DEACTIVATED',
  IM_ERR_FORBIDDEN: 'errors.IM_ERR_FORBIDDEN',
  IM_ERR_WRONG_PASSWORD: 'errors.IM_ERR_WRONG_PASSWORD',
  IM_ERR_NO_PASSWORD: 'errors.IM_ERR_NO_PASSWORD',
  IM_ERR_BANNED: 'errors.IM_ERR_BANNED',
  IM_ERR_MUTED: 'errors.IM_ERR_MUTED',
  IM_ERR_REGISTRATION_CLOSED: 'errors.IM_ERR_REGISTRATION_CLOSED',
  IM_ERR_NOT_FOUND: 'errors.IM_ERR_NOT_FOUND',
  IM_ERR_ROUTE_NOT_FOUND: 'errors.IM_ERR_ROUTE_NOT_FOUND',
  IM_ERR_METHOD_NOT_ALLOWED: 'errors.IM_ERR_METHOD_NOT_ALLOWED',
  IM_ERR_CONFLICT: 'errors.IM_ERR_CONFLICT',
  IM_ERR_USERNAME_TAKEN: 'errors.IM_ERR_USERNAME_TAKEN',
  IM_ERR_LIMIT: 'errors.IM_ERR_LIMIT',
  IM_ERR_LINK_EXPIRED: 'errors.IM_ERR_LINK_EXPIRED',
  IM_ERR_LINK_USED: 'errors.IM_ERR_LINK_USED',
  IM_ERR_PAYLOAD_TOO_LARGE: 'errors.IM_ERR_PAYLOAD_TOO_LARGE',
  IM_ERR_QUOTA: 'errors.IM_ERR_QUOTA',
  IM_ERR_UNSUPPORTED_MEDIA_TYPE: 'errors.IM_ERR_UNSUPPORTED_MEDIA_TYPE',
  IM_ERR_RANGE_NOT_SATISFIABLE: 'errors.IM_ERR_RANGE_NOT_SATISFIABLE',
  IM_ERR_RATE_LIMITED: 'errors.IM_ERR_RATE_LIMITED',
  IM_ERR_INTERNAL: 'errors.IM_ERR_INTERNAL',
  IM_ERR_SERVICE_UNAVAILABLE: 'errors.IM_ERR_SERVICE_UNAVAILABLE',
} as const satisfies Record<string, MessageKey>;

/**
 * Codes whose server message is terse and meant for developers: the app's
 * sentence in every language. For the others, English shows the server's
 * message, which says which of the code's many cases it is ("This link
 * expired: ask for a new one"); other languages show the code's sentence.
 */
const ALWAYS_OURS = new Set([
  'NETWORK',
  'IM_ERR_BANNED',
  'IM_ERR_MUTED',
  'IM_ERR_REGISTRATION_CLOSED',
  'IM_ERR_ACCOUNT_DEACTIVATED',
  'IM_ERR_NO_PASSWORD',
]);

const isKnown = (code: string): code is keyof typeof SENTENCES => Object.hasOwn(SENTENCES, code);

/** The sentence for an error code in the app's language, or the server's message (see ALWAYS_OURS). */
export function sentenceFor(code: string, message: string): string {
  if (!isKnown(code)) return message;
  if (i18n.resolvedLanguage === 'en' && !ALWAYS_OURS.has(code)) return message;
  return t(SENTENCES[code]);
}

/** A message fit to show to the user for any thrown value. */
export function describeError(err: unknown): string {
  if (err instanceof ApiRequestError) return sentenceFor(err.code, err.message);
  if (err instanceof Error) return err.message;
  return String(err);
}
