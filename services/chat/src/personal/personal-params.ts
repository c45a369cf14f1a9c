import { idParam, limitParam, notBlank, strict } from '@im/sdk';
import { timeCursorParam } from './time-cursor.ts';

/** Options one poll may offer (the contract's limits). */
export const POLL_MIN_OPTIONS = 2;
export const POLL_MAX_OPTIONS = 10;

/** An ISO 8601 time with a zone (`2026-12-01T09:00:00Z`); parsed and checked by the action. */
const isoTime = {
  type: 'string',
  max: 40,
  pattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/,
  messages: { stringPattern: "'{field}' must be an ISO 8601 time with a zone, e.g. 2026-12-01T09:00:00Z" },
} as const;

/** `poll` of a send: 2 to 10 options, each distinct (checked by the action). */
export const pollBody = {
  type: 'object',
  optional: true,
  strict: true,
  props: {
    question: { type: 'string', trim: true, min: 1, max: 300, ...notBlank },
    options: {
      type: 'array',
      min: POLL_MIN_OPTIONS,
      max: POLL_MAX_OPTIONS,
      items: { type: 'string', trim: true, min: 1, max: 100, ...notBlank },
    },
    multiple: { type: 'boolean', optional: true },
    anonymous: { type: 'boolean', optional: true },
    closesAt: { ...isoTime, optional: true },
  },
} as const;

/** `GET /api/saved` cursor: `<savedAt ms>_<saved id>`, as the previous page handed it out. */
const cursor = timeCursorParam;

/** Parameters of polls, submessages and saved messages (fastest-validator; the API document is generated from them). */
export const personalParams = {
  vote: strict({
    messageId: idParam,
    // Indexes of the chosen options; empty withdraws my vote.
    options: {
      type: 'array',
      max: POLL_MAX_OPTIONS,
      items: { type: 'number', integer: true, min: 0, max: POLL_MAX_OPTIONS - 1 },
    },
  }),
  closePoll: strict({ messageId: idParam }),
  postSubmessage: strict({ messageId: idParam, content: { type: 'string', min: 2, max: 4096 } }),
  submessages: strict({ messageId: idParam }),
  save: strict({ messageId: idParam }),
  saved: strict({ cursor, limit: limitParam }),
} as const;
