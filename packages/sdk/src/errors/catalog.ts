/**
 * Every error a client can see: code, HTTP status and default message.
 * docs/errors.md documents each one (a test keeps them in step).
 */
export const ERROR_CATALOG = {
  IM_ERR_VALIDATION: { status: 400, message: 'Invalid input' },
  IM_ERR_BAD_JSON: { status: 400, message: 'Request body is not valid JSON' },
  IM_ERR_LINK_INVALID: { status: 400, message: 'This link is not valid' },
  IM_ERR_UNAUTHORIZED: { status: 401, message: 'Missing or invalid access token' },
  IM_ERR_INVALID_CREDENTIALS: { status: 401, message: 'Wrong username or password' },
  IM_ERR_ACCOUNT_DEACTIVATED: { status: 401, message: 'This account is deactivated' },
  IM_ERR_FORBIDDEN: { status: 403, message: 'Not allowed' },
  IM_ERR_WRONG_PASSWORD: { status: 403, message: 'The current password is wrong' },
  IM_ERR_NO_PASSWORD: { status: 403, message: 'This account signs in with single sign-on and has no password' },
  IM_ERR_BANNED: { status: 403, message: 'You are banned from this group' },
  IM_ERR_MUTED: { status: 403, message: 'You are muted in this group' },
  IM_ERR_BLOCKED: { status: 403, message: 'You cannot message this user' },
  IM_ERR_REGISTRATION_CLOSED: { status: 403, message: 'Registration is closed on this server' },
  IM_ERR_NOT_FOUND: { status: 404, message: 'Not found' },
  IM_ERR_ROUTE_NOT_FOUND: { status: 404, message: 'No such route' },
  IM_ERR_METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed on this route' },
  IM_ERR_CONFLICT: { status: 409, message: 'Conflicts with the current state' },
  IM_ERR_USERNAME_TAKEN: { status: 409, message: 'Username is taken' },
  IM_ERR_LIMIT: { status: 409, message: 'A limit on this object is reached' },
  IM_ERR_LINK_EXPIRED: { status: 410, message: 'This link has expired' },
  IM_ERR_LINK_USED: { status: 410, message: 'This link was already used' },
  IM_ERR_PAYLOAD_TOO_LARGE: { status: 413, message: 'Payload too large' },
  IM_ERR_QUOTA: { status: 413, message: 'Your storage quota is used up' },
  IM_ERR_UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported content type' },
  IM_ERR_RANGE_NOT_SATISFIABLE: { status: 416, message: 'The requested range is outside the file' },
  IM_ERR_RATE_LIMITED: { status: 429, message: 'Too many requests, retry later' },
  IM_ERR_INTERNAL: { status: 500, message: 'Internal error' },
  IM_ERR_SERVICE_UNAVAILABLE: { status: 503, message: 'A dependency is unavailable, retry later' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_CATALOG, value);
