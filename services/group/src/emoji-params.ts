import { idParam, strict } from '@im/sdk';

/** A custom emoji's name, as `:name:` carries it. */
export const EMOJI_NAME = /^[a-z0-9_]{2,32}$/;

const emojiName = {
  type: 'string',
  min: 2,
  max: 32,
  pattern: EMOJI_NAME,
  examples: ['party_parrot'],
  messages: { stringPattern: "'{field}' must be 2-32 of a-z, 0-9 and _" },
} as const;

/** Parameters of the custom emoji actions (fastest-validator). */
export const emojiParams = {
  add: strict({ groupId: idParam, name: emojiName, fileId: { ...idParam, optional: true } }),
  list: strict({ groupId: idParam }),
  remove: strict({ groupId: idParam, name: emojiName }),
  exists: strict({ groupId: idParam, name: emojiName }),
  // Only for the OpenAPI document: the gateway reads the multipart body itself.
  upload: strict({ groupId: idParam }),
} as const;
