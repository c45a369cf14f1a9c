import type { Context } from 'moleculer';
import { unauthorized } from '../errors/helpers.ts';

/**
 * Building blocks for action `params` (fastest-validator). Every action
 * schema is strict: an unknown field, a `$`-operator object where a string
 * is expected, or a wrong type is a 400 before the handler runs.
 */
export const OBJECT_ID = /^[0-9a-f]{24}$/;

export const idParam = {
  type: 'string',
  pattern: OBJECT_ID,
  messages: { stringPattern: "'{field}' must be an id" },
} as const;

/** A string with more than white space in it (the pattern says so in the API document too). */
export const notBlank = { pattern: /\S/, messages: { stringPattern: "'{field}' must not be blank" } } as const;

export const strict = <const T extends Record<string, unknown>>(schema: T) => ({ $$strict: true, ...schema }) as const;

/**
 * Text to search for (1 to `max` characters). A NUL cannot be part of a
 * database regular expression, so it is refused here rather than failing there.
 */
export const searchText = (max: number) =>
  ({
    type: 'string',
    min: 1,
    max,
    // eslint-disable-next-line no-control-regex -- the NUL is what this pattern refuses
    pattern: /^[^\u0000]+$/,
    messages: { stringPattern: "'{field}' must not contain NUL characters" },
  }) as const;

/** A `limit` query parameter: 1-100, default 50. */
export const limitParam = { type: 'number', integer: true, min: 1, max: 100, convert: true, optional: true } as const;

/** Who is calling, set by the gateway from the verified token. */
export interface CallerMeta {
  /** The authenticated caller and the login session of their token. */
  user?: { id: string; sessionId?: string; botGroupId?: string };
  /** Client address, for per-address rate limits (TRUST_PROXY decides which). */
  ip?: string;
  /** The client's User-Agent, recorded with a new session. */
  userAgent?: string;
}

/** The authenticated caller's id, or IM_ERR_UNAUTHORIZED. */
export function callerId(ctx: Context<unknown, CallerMeta>): string {
  const id = ctx.meta.user?.id;
  if (!id) throw unauthorized();
  return id;
}

/** Regex-safe copy of user input, for prefix searches. */
export const escapeRegex = (input: string): string => input.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
