import { call, type ActionCaller } from '@im/sdk';
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
