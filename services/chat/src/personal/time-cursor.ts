import { Types } from 'mongoose';

/**
 * Pages newest first by (a date field, _id): the cursor is `<ms>_<id>` of
 * the last row handed out, so rows written meanwhile never shift a page.
 */
export const timeCursorParam = {
  type: 'string',
  pattern: /^\d{1,15}_[0-9a-f]{24}$/,
  optional: true,
  messages: { stringPattern: "'{field}' must be a cursor from a previous page" },
} as const;

/** The filter for the rows after `cursor` (none without one). */
export function olderThanCursor(field: string, cursor: string | undefined): Record<string, unknown> {
  const [at, id] = cursor ? cursor.split('_') : [];
  if (!at || !id) return {};
  const when = new Date(Number(at));
  return { $or: [{ [field]: { $lt: when } }, { [field]: when, _id: { $lt: new Types.ObjectId(id) } }] };
}

/** The cursor after this row. */
export const timeCursorOf = (when: Date, id: Types.ObjectId): string => `${when.getTime()}_${id.toHexString()}`;
