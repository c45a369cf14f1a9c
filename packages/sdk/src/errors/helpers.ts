import { ImError } from './im-error.ts';

/**
 * What a client can be told is missing. Named once, so every "not found"
 * reads the same wherever it is thrown.
 */
export type MissingThing =
  | 'message'
  | 'member'
  | 'group'
  | 'user'
  | 'panel'
  | 'file'
  | 'converse'
  | 'DM'
  | 'role'
  | 'report'
  | 'invite'
  | 'user group'
  | 'session'
  | 'import'
  | 'export'
  | 'bot'
  | 'webhook'
  | 'response URL'
  | 'command'
  | 'feed'
  | 'call'
  | 'emoji'
  | 'poll'
  | 'scheduled message'
  | 'reminder';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** 404: `notFound('message')` is "Message not found"; a detail follows a colon. */
export const notFound = (what: MissingThing, detail?: string): ImError =>
  new ImError('IM_ERR_NOT_FOUND', `${capitalised(what)} not found${detail ? `: ${detail}` : ''}`);

/** 403 with the catalog's message unless the reason helps the user. */
export const forbidden = (reason?: string): ImError => new ImError('IM_ERR_FORBIDDEN', reason);

/** 400: input the schema let through but the action cannot take; say which field and why. */
export const invalid = (reason: string, details?: unknown): ImError =>
  new ImError('IM_ERR_VALIDATION', reason, details);

/** 409: the request conflicts with what is stored now. */
export const conflict = (reason: string): ImError => new ImError('IM_ERR_CONFLICT', reason);

/** 409: a cap on the object is reached (panels, pins, members). */
export const limitReached = (reason: string): ImError => new ImError('IM_ERR_LIMIT', reason);
