import { call, firstLink, type ActionCaller } from '@im/sdk';
import type { Types } from 'mongoose';
import type { ChatDeps } from '../deps.ts';
import type { MessageDoc } from '../models.ts';

/**
 * A link preview's image is a file the file service stored for the author:
 * once its preview is gone (removed, its message deleted, or the link edited
 * away) the file service removes it and gives its bytes back to the author's
 * quota. A failure here leaves the file, never fails the change itself.
 */
export async function dropPreviewImage(
  ctx: ActionCaller & { broker?: { logger: { warn(...args: unknown[]): void } } },
  preview: MessageDoc['preview'] | undefined,
): Promise<void> {
  const fileId = preview?.imageFileId;
  if (!fileId) return;
  await call(ctx, 'file.removePreviewImage', { fileId: fileId.toHexString() }).catch((err: unknown) =>
    ctx.broker?.logger.warn('could not remove a link preview image', err),
  );
}

/**
 * Before an edit whose first link is not the one the preview was made for:
 * takes the preview off (and keeps any fetch under way from setting it: an
 * empty previewUrl matches no link) and answers the preview it had, whose
 * image the caller drops once the edit is stored. Undefined when the link
 * stays (the preview stays with it).
 */
export async function previewLeftByEdit(
  models: ChatDeps['models'],
  doc: Pick<MessageDoc, '_id' | 'content'>,
  content: string,
): Promise<{ preview?: MessageDoc['preview'] } | undefined> {
  if (firstLink(doc.content)?.href === firstLink(content)?.href) return undefined;
  const before = await models.messages
    .findOneAndUpdate(
      { _id: doc._id as Types.ObjectId, previewUrl: { $ne: '' } },
      { $unset: { preview: '' }, $set: { previewUrl: '' } },
      { new: false, projection: { preview: 1 } },
    )
    .lean<Pick<MessageDoc, 'preview'>>();
  return before ?? undefined;
}
