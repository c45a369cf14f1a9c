import { idParam, strict } from '@im/sdk';

/**
 * The call service's action parameters (fastest-validator). The gateway's
 * OpenAPI document is generated from these, so the two cannot drift.
 */
export const callParams = {
  join: strict({ converseId: idParam }),
  state: strict({ converseId: idParam }),
  decline: strict({ converseId: idParam }),
  ringing: strict({}),
  /** LiveKit's webhook, unparsed: its signature covers the exact bytes. */
  webhook: strict({
    body: { type: 'string', max: 1_048_576 },
    authorization: { type: 'string', max: 8192 },
  }),
} as const;
