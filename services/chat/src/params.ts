import { CUSTOM_EMOJI_NAME } from '@im/protocol';
import { idParam, limitParam, notBlank, searchText, strict } from '@im/sdk';
import { timestampParam } from './schedule/schedule-params.ts';
import { pollBody } from './personal/personal-params.ts';

/**
 * The chat service's action parameters (fastest-validator). The gateway's
 * OpenAPI document is generated from these, so the two cannot drift.
 */
const content = {
  type: 'string',
  min: 1,
  max: 4000,
  ...notBlank,
} as const;
/** A seq in a query or body (a number, or its decimal text). */
export const seq = { type: 'number', integer: true, min: 0, max: Number.MAX_SAFE_INTEGER, convert: true } as const;

/** One emoji (with modifiers and joiners), as reactions use it. */
export const EMOJI =
  /^(?=.*(?:\p{Extended_Pictographic}|\p{Regional_Indicator}))(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\u200d|\ufe0f){1,16}$/u;

/** A group's custom emoji, `:name:` (whether the group has it is checked by the action). */
export const CUSTOM_EMOJI = new RegExp(`^:(${CUSTOM_EMOJI_NAME}):$`);

/** One emoji in a path: `PUT /api/messages/:messageId/reactions/:emoji` and its kin. */
const emoji = {
  type: 'string',
  min: 1,
  max: 64,
  pattern: new RegExp(`${EMOJI.source}|${CUSTOM_EMOJI.source}`, 'u'),
  examples: ['👍', '🎉', '❤️', '👍🏽', '🇫🇷', ':party_parrot:'],
  messages: { stringPattern: "'{field}' must be one emoji, or :name: of a custom one" },
} as const;

export const chatParams = {
  forward: strict({ messageId: idParam, converseId: idParam }),
  openDm: strict({ userId: idParam }),
  /** DMs an import wrote (internal: the import service). */
  adoptImportedDms: strict({ converseIds: { type: 'array', items: idParam, max: 100_000 } }),
  listDms: strict({}),
  send: strict({
    converseId: idParam,
    // Required, but with a poll (its question is then the text).
    content: { ...content, optional: true },
    clientMsgId: { type: 'string', min: 1, max: 64, pattern: /^[A-Za-z0-9_.:-]+$/, optional: true },
    replyTo: { ...idParam, optional: true },
    // A thread reply: the root, a top-level message of the same converse.
    threadId: { ...idParam, optional: true },
    attachments: { type: 'array', items: idParam, max: 10, optional: true },
    // Bots only (a person's send with it is refused).
    username: { type: 'string', trim: true, min: 1, max: 64, pattern: /\S/, optional: true },
    // Send it later (people over HTTP): 202 {scheduled}.
    sendAt: { ...timestampParam, optional: true },
    poll: pollBody,
  }),
  history: strict({
    converseId: idParam,
    before: { ...seq, optional: true },
    after: { ...seq, optional: true },
    // The page centred on this seq (alone: not with before/after).
    around: { ...seq, min: 1, optional: true },
    limit: limitParam,
  }),
  feedMessages: strict({
    converseId: idParam,
    before: { ...seq, optional: true },
    limit: { ...limitParam, optional: false },
  }),
  getMessage: strict({ messageId: idParam }),
  edit: strict({ messageId: idParam, content }),
  remove: strict({ messageId: idParam }),
  react: strict({ messageId: idParam, emoji }),
  reactors: strict({ messageId: idParam, emoji, limit: limitParam }),
  ack: strict({ converseId: idParam, seq }),
  markUnread: strict({ converseId: idParam, seq: { ...seq, min: 1 } }),
  threadFollowers: strict({ rootId: idParam, max: { type: 'number', integer: true, min: 1, max: 10_000 } }),
  reads: strict({ converseId: idParam }),
  unread: strict({}),
  search: strict({
    q: searchText(100),
    converseId: { ...idParam, optional: true },
    limit: limitParam,
    // The searcher's minutes east of UTC: before:/after:/during: days are theirs (UTC without it).
    tzOffset: { type: 'number', integer: true, convert: true, min: -840, max: 840, optional: true },
  }),
  access: strict({ converseId: idParam, userId: idParam }),
  postCallRecord: strict({
    converseId: idParam,
    authorId: idParam,
    outcome: { type: 'enum', values: ['missed', 'declined', 'ended'] },
    durationSec: { type: 'number', integer: true, min: 0 },
    key: { type: 'string', min: 1, max: 200 },
  }),
  readSeqs: strict({ userId: idParam, converseIds: { type: 'array', items: idParam, max: 500 } }),
  startReading: strict({ userId: idParam, converseIds: { type: 'array', items: idParam, max: 1000 } }),
  userRooms: strict({ userId: idParam }),
  contactsAmong: strict({ userId: idParam, ids: { type: 'array', items: idParam, max: 1000 } }),
  sync: strict({
    cursors: {
      type: 'record',
      key: { type: 'string', pattern: /^[0-9a-f]{24}$/ },
      value: { type: 'number', integer: true, min: 0 },
    },
  }),
} as const;
