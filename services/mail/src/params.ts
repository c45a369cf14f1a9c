import { strict } from '@im/sdk';

/** The mail service's action parameters (fastest-validator). */
export const mailParams = {
  send: strict({
    kind: { type: 'enum', values: ['verify-email', 'password-reset'] },
    to: { type: 'string', min: 3, max: 254 },
    username: { type: 'string', min: 1, max: 64 },
    url: { type: 'string', min: 1, max: 4096, pattern: /^https?:\/\// },
  }),
} as const;
