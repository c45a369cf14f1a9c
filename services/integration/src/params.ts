import { idParam, notBlank, strict } from '@im/sdk';

/**
 * The integration service's action parameters (fastest-validator). The
 * gateway's OpenAPI document is generated from these.
 */
const name = {
  type: 'string',
  trim: true,
  min: 1,
  max: 64,
  ...notBlank,
} as const;
/** Checked again by the outbound guard (scheme, and a public destination). */
const url = { type: 'string', trim: true, min: 8, max: 2048, format: 'uri' } as const;
/** Message text, as a send takes it. */
const text = {
  type: 'string',
  min: 1,
  max: 4000,
  ...notBlank,
} as const;
/** A hook's or a command's secret as issued: 32 random bytes, base64url. */
const secret = { type: 'string', min: 43, max: 43, pattern: /^[A-Za-z0-9_-]+$/ } as const;
const trigger = {
  type: 'string',
  min: 1,
  max: 32,
  pattern: /^[a-z0-9_-]+$/,
  messages: { stringPattern: "'{field}' must be lower-case letters, digits, _ or - (without the slash)" },
} as const;
const groupRef = strict({ groupId: idParam });

export const integrationParams = {
  createBot: strict({ groupId: idParam, name }),
  listBots: groupRef,
  botRef: strict({ groupId: idParam, botId: idParam }),

  createIncoming: strict({ groupId: idParam, panelId: idParam, name }),
  listIncoming: groupRef,
  incomingRef: strict({ groupId: idParam, hookId: idParam }),
  postToHook: {
    // Slack senders add fields this platform has no use for (channel, icon_emoji, mrkdwn, ...): dropped.
    $$strict: 'remove',
    // Any id and secret are taken here: a wrong one of any shape is the documented 404, as no hook.
    hookId: { type: 'string', min: 1, max: 64 },
    secret: { type: 'string', min: 1, max: 4096 },
    // Slack's field is `text`; `content` is this platform's. One of them, attachments or blocks is needed.
    text: { type: 'string', max: 40_000, optional: true },
    content: { ...text, optional: true },
    username: { ...name, optional: true },
    attachments: { type: 'array', max: 20, optional: true, items: { type: 'object' } },
    blocks: { type: 'array', max: 50, optional: true, items: { type: 'object' } },
  },

  createOutgoing: strict({
    groupId: idParam,
    url,
    name: { ...name, optional: true },
    panelId: { ...idParam, optional: true },
    triggerWords: {
      type: 'array',
      optional: true,
      max: 20,
      items: { type: 'string', trim: true, min: 1, max: 64, pattern: /^\S+$/ },
    },
  }),
  listOutgoing: groupRef,
  outgoingRef: strict({ groupId: idParam, hookId: idParam }),
  updateOutgoing: strict({ groupId: idParam, hookId: idParam, disabled: { type: 'boolean' } }),

  createCommand: strict({
    groupId: idParam,
    trigger,
    url,
    description: { type: 'string', trim: true, max: 200, optional: true },
  }),
  listCommands: groupRef,
  commandRef: strict({ groupId: idParam, commandId: idParam }),
  runCommand: strict({
    groupId: idParam,
    converseId: idParam,
    userId: idParam,
    trigger,
    text: { type: 'string', max: 4000 },
  }),
  respond: strict({
    token: secret,
    text,
    responseType: { type: 'enum', values: ['ephemeral', 'in_channel'], optional: true },
  }),
} as const;
