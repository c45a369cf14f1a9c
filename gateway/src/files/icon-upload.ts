import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { PICTURE_MAX_BYTES, PICTURE_TYPES } from '@im/protocol';
import { call, ImError, sniffMime, type AppContext, invalid } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import type { Authenticator } from '../auth/authenticator.ts';
import { sendJson } from '../http/respond.ts';
import { openGroupImageUpload } from './group-image-upload.ts';
import { readSmallImageForm, sha256Hex } from './small-image-form.ts';
import { storageKey } from './upload.ts';

const tooLarge = () => new ImError('IM_ERR_PAYLOAD_TOO_LARGE', 'A group icon can be at most 1 MB');
const invalidField = (field: string, message: string) => invalid(message, [{ field, type: 'icon', message }]);

/**
 * PUT /api/groups/:groupId/icon: checks that the caller may change the
 * group's icon before reading the body, takes the image whole (at most
 * 1 MB, its type sniffed from the bytes), stores it as the caller's upload,
 * then makes it the icon. The answer is the group as the caller sees it.
 */
export function createIconUploadHandler(app: AppContext, broker: ServiceBroker, auth: Authenticator) {
  return async (req: IncomingMessage, res: ServerResponse, params: Record<string, string | undefined>) => {
    const { userId, storage, groupId } = await openGroupImageUpload(app, auth, req, res, params, {
      maxBytes: PICTURE_MAX_BYTES,
      tooLarge,
      invalid: invalidField,
    });
    const meta = { meta: { user: { id: userId } } };
    await call(broker, 'group.setIcon', { groupId }, meta);
    const { bytes } = await readSmallImageForm(req, {
      maxBytes: PICTURE_MAX_BYTES,
      tooLarge,
      fields: [],
      usage: 'Send multipart/form-data with a "file" image',
    });
    if (!bytes || bytes.length === 0) throw invalidField('file', 'The multipart body has no "file" image');
    const mime = await sniffMime(bytes.subarray(0, 4100));
    if (!PICTURE_TYPES.includes(mime)) throw invalidField('file', 'The icon must be a PNG, JPEG, GIF or WebP image');

    const key = storageKey('f');
    await storage.put(key, Readable.from([bytes]), mime);
    let file;
    try {
      file = await call(
        broker,
        'file.register',
        { key, name: `icon.${mime.slice(6)}`, size: bytes.length, mime, sha256: sha256Hex(bytes) },
        meta,
      );
    } catch (err) {
      await storage.remove(key).catch(() => undefined);
      throw err;
    }
    // A refusal from here on leaves an unused upload of the caller's, which the cleanup removes.
    const group = await call(broker, 'group.setIcon', { groupId, fileId: file.id }, meta);
    sendJson(res, 200, group);
  };
}
