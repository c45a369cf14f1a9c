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
  forgetPublic: strict({ converseIds: { type: 'array', items: idParam, max: 1000 } }),
} as const;
