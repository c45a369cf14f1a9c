import { PICTURE_MAX_BYTES, PICTURE_TYPES } from '@im/protocol';
import { invalid } from '@im/sdk';
import type { FileDoc, FileModel } from './models.ts';

/** What a picture is for, as its refusals name it. */
export type PictureUse = 'avatar' | 'icon';

const refused = (use: PictureUse, message: string) =>
  invalid(`${use}: ${message}`, [{ field: use, type: use, message }]);

/**
 * The file, when it is the user's own upload and a small PNG, JPEG, GIF or
 * WebP image (its sniffed type): what a profile picture or a group icon may be.
 */
export async function ownPicture(files: FileModel, fileId: string, userId: string, use: PictureUse): Promise<FileDoc> {
  const doc = await files.findById(fileId).lean<FileDoc>();
  if (!doc || doc.uploaderId.toHexString() !== userId) throw refused(use, 'no such file of yours');
  if (!PICTURE_TYPES.includes(doc.mime)) throw refused(use, 'the file must be a PNG, JPEG, GIF or WebP image');
  if (doc.size > PICTURE_MAX_BYTES) throw refused(use, 'a picture can be at most 1 MB');
  return doc;
}
