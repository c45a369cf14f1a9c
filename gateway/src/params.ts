import { idParam, limitParam, strict } from '@im/sdk';

/** The gateway's own actions' parameters (fastest-validator). */
export const gatewayParams = {
  /** Up to 200 comma-separated ids. */
  presence: strict({ userIds: { type: 'string', pattern: /^[0-9a-f]{24}(,[0-9a-f]{24}){0,199}$/ } }),
  online: strict({ userIds: { type: 'array', items: idParam, max: 10_000 } }),
  /** Documents the public read; the gateway parses its query itself (public-routes.ts). */
  publicMessages: strict({
    panelId: idParam,
    before: { type: 'number', integer: true, min: 1, convert: true, optional: true },
    limit: limitParam,
  }),
  /** Documents a web-public panel's page and feeds (`?before=` a seq); parsed by public-routes.ts. */
  publicPage: strict({
    panelId: idParam,
    before: { type: 'number', integer: true, min: 1, max: 999_999_999_999_999, convert: true, optional: true },
  }),
  /** Documents a personal feed: the token as issued (32 random bytes, base64url) and a converse. */
  personalFeed: strict({
    token: { type: 'string', min: 43, max: 43, pattern: /^[A-Za-z0-9_-]+$/ },
    converseId: idParam,
  }),
  forgetPublic: strict({ converseIds: { type: 'array', items: idParam, max: 1000 } }),
} as const;
