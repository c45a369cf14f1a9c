import { idParam, strict } from '@im/sdk';

/** Parameters of the export actions (fastest-validator). */
export const exportParams = {
  group: strict({ groupId: idParam }),
  mine: strict({}),
  status: strict({ exportId: idParam }),
  locate: strict({ exportId: idParam }),
  // Only for the API document: the gateway checks the signature itself.
  download: strict({
    exportId: idParam,
    exp: { type: 'string', pattern: /^\d{1,12}$/, description: 'Expiry (Unix seconds), from the signed URL' },
    sig: { type: 'string', max: 100, description: 'Signature, from the signed URL' },
  }),
} as const;
