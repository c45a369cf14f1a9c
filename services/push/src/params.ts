import { idParam, strict } from '@im/sdk';

/** The push service's action parameters (fastest-validator). */
export const pushParams = {
  vapidPublicKey: strict({}),
  subscribe: strict({
    endpoint: { type: 'string', max: 2048, pattern: /^https?:\/\/\S+$/, format: 'uri' },
    keys: {
      type: 'object',
      strict: true,
      props: { p256dh: { type: 'string', min: 20, max: 256 }, auth: { type: 'string', min: 8, max: 64 } },
    },
    expirationTime: { type: 'any', optional: true },
  }),
  subscriptions: strict({}),
  unsubscribe: strict({ endpoint: { type: 'string', max: 2048 } }),
  registerDevice: strict({
    platform: { type: 'enum', values: ['ios', 'android'] },
    token: { type: 'string', min: 8, max: 512, pattern: /^[\w:.-]+$/ },
  }),
  removeDevice: strict({ token: { type: 'string', min: 8, max: 512 } }),
  inbox: strict({
    cursor: { ...idParam, optional: true },
    limit: { type: 'number', integer: true, min: 1, max: 100, convert: true, optional: true },
  }),
  getSettings: strict({}),
  unread: strict({}),
  markRead: strict({ upTo: { ...idParam, optional: true } }),
  converseLevel: strict({ converseId: idParam }),
  setConverseLevel: strict({
    converseId: idParam,
    level: { type: 'enum', values: ['all', 'mentions', 'none'] },
    // An ISO 8601 time with its offset, as the document declares it (date-time).
    muteUntil: {
      type: 'string',
      max: 40,
      pattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/,
      format: 'date-time',
      optional: true,
      nullable: true,
    },
  }),
  mutedAmong: strict({ converseId: idParam, userIds: { type: 'array', items: idParam, max: 1000 } }),
  updateSettings: strict({
    muteAll: { type: 'boolean', optional: true },
    mutedConverseIds: { type: 'array', items: idParam, max: 1000, unique: true, optional: true },
  }),
  forgetUser: strict({ userId: idParam }),
} as const;
