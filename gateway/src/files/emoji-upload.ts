import { CUSTOM_EMOJI_NAME_PATTERN, CUSTOM_EMOJI_TYPES } from '@im/protocol';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { call, ImError, sniffMime, type AppContext, invalid } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import type { Authenticator } from '../auth/authenticator.ts';
import { sendJson } from '../http/respond.ts';
import { openGroupImageUpload } from './group-image-upload.ts';
import { readSmallImageForm, sha256Hex } from './small-image-form.ts';
import { storageKey } from './upload.ts';

/** Custom emoji images are small: the whole body is read into memory, never past this. */
export const EMOJI_MAX_BYTES = 256 * 1024;

const EMOJI_NAME = new RegExp(CUSTOM_EMOJI_NAME_PATTERN);

const tooLarge = () => new ImError('IM_ERR_PAYLOAD_TOO_LARGE', `Emoji images are limited to ${EMOJI_MAX_BYTES} bytes`);
const invalidField = (field: string, message: string) => invalid(message, [{ field, type: 'emoji', message }]);

/**
 * POST /api/groups/:groupId/emoji: checks the form and that the caller may
 * add this emoji before anything is stored, then stores the image as a file
 * the group's members may read, then records the emoji.
 */
export function createEmojiUploadHandler(app: AppContext, broker: ServiceBroker, auth: Authenticator) {
  return async (req: IncomingMessage, res: ServerResponse, params: Record<string, string | undefined>) => {
    const { userId, storage, groupId } = await openGroupImageUpload(app, auth, req, res, params, {
      maxBytes: EMOJI_MAX_BYTES,
      tooLarge,
      invalid: invalidField,
    });
    const { fields, bytes } = await readSmallImageForm(req, {
      maxBytes: EMOJI_MAX_BYTES,
      tooLarge,
      fields: ['name'],
      usage: 'Send multipart/form-data with a "name" field and a "file" image',
    });
    const name = fields.name;
    if (name === undefined || !EMOJI_NAME.test(name))
      throw invalidField('name', "'name' must be 2-32 of a-z, 0-9 and _");
    if (!bytes || bytes.length === 0) throw invalidField('file', 'The multipart body has no "file" image');
    const mime = await sniffMime(bytes.subarray(0, 4100));
    if (!CUSTOM_EMOJI_TYPES.includes(mime))
      throw invalidField('file', 'The file must be a PNG, GIF, JPEG, WebP or AVIF image');
    const meta = { meta: { user: { id: userId } } };
    await call(broker, 'group.addEmoji', { groupId, name }, meta);

    const key = storageKey('e');
    await storage.put(key, Readable.from([bytes]), mime);
    try {
      const file = await call(
        broker,
        'file.register',
        { key, name: `${name}.${mime.slice(6)}`, size: bytes.length, mime, sha256: sha256Hex(bytes), groupId },
        meta,
      );
      const emoji = await call(broker, 'group.addEmoji', { groupId, name, fileId: file.id }, meta);
      sendJson(res, 201, emoji);
    } catch (err) {
      // The file record, if made, stays the uploader's (counted in their quota); the bytes of a failed add go.
      await storage.remove(key).catch(() => undefined);
      throw err;
    }
  };
}
