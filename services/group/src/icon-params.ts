import { idParam, strict } from '@im/sdk';

/** Parameters of the group icon actions (fastest-validator). */
export const iconParams = {
  set: strict({ groupId: idParam, fileId: { ...idParam, optional: true } }),
  remove: strict({ groupId: idParam }),
  // Only for the OpenAPI document: the gateway reads the multipart body itself.
  upload: strict({ groupId: idParam }),
} as const;
