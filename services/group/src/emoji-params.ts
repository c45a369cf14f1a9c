import { CUSTOM_EMOJI_NAME_PATTERN } from '@im/protocol';
import { idParam, strict } from '@im/sdk';

/** A custom emoji's name, as `:name:` carries it. */
const EMOJI_NAME = new RegExp(CUSTOM_EMOJI_NAME_PATTERN);

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
