import {
  announce,
  callerId,
  EVENTS,
  forbidden,
  notFound,
  type ActionParams,
  type ActionResult,
  type Ctx,
  type Params,
} from '@im/sdk';
import { Types } from 'mongoose';
import type { ChatDeps } from '../deps.ts';
import type { MessageDoc } from '../models.ts';
import { dropPreviewImage } from './preview-image.ts';
import { previewParams } from './preview-params.ts';
import { audience, toMessage } from '../messages/views.ts';

/**
 * Link previews on messages: the file service fetches the page (it stores the
 * image) and hands the card here; the author may take it off again.
 */
export const previewActions = ({ store, access }: ChatDeps) => {
  /** Tells the converse of a stored change (message:updated). */
  const publish = async (ctx: Ctx<object>, updated: MessageDoc) => {
    const converse = await access.resolve(ctx, updated.converseId.toHexString(), updated.authorId.toHexString());
    announce(ctx, EVENTS.messageUpdated, { message: toMessage(updated), ...audience(converse) });
  };

  return {
    /** One fetch per message, whichever file node heard of it first (the event reaches them all). */
    claimPreview: {
      visibility: 'public' as const,
      params: previewParams.claim,
      async handler(ctx: Ctx<ActionParams<'chat.claimPreview'>>): Promise<ActionResult<'chat.claimPreview'>> {
        return store.change.claimPreview(ctx.params.messageId, ctx.params.url);
      },
    },

    /** The fetched card; nothing happens if the message was deleted or its preview removed meanwhile. */
    setPreview: {
      visibility: 'public' as const,
      params: previewParams.set,
      async handler(ctx: Ctx<ActionParams<'chat.setPreview'>>): Promise<ActionResult<'chat.setPreview'>> {
        // The validator leaves absent optional fields as undefined keys, which the driver would store as null.
        const { imageFileId, url, title, description, siteName } = ctx.params.preview;
        const card = { url, title, ...(description ? { description } : {}), ...(siteName ? { siteName } : {}) };
        const updated = await store.change.setPreview(ctx.params.messageId, {
          ...card,
          ...(imageFileId ? { imageFileId: new Types.ObjectId(imageFileId) } : {}),
        });
        if (updated) await publish(ctx, updated);
        return updated !== null;
      },
    },

    /** DELETE /api/messages/:messageId/preview: the author takes the card off (it does not come back). */
    removePreview: {
      params: previewParams.remove,
      async handler(ctx: Ctx<Params<typeof previewParams.remove>>): Promise<void> {
        const userId = callerId(ctx);
        const { doc } = await access.requireMessage(ctx, ctx.params.messageId, userId);
        if (doc.deleted) throw notFound('message');
        if (doc.authorId.toHexString() !== userId) throw forbidden("Only the author may remove a message's preview");
        // The card as this update found it (one set meanwhile included): its image goes with it.
        const removed = await store.change.removePreview(doc);
        if (!removed?.before.preview) return;
        if (removed.after) await publish(ctx, removed.after);
        await dropPreviewImage(ctx, removed.before.preview);
      },
    },
  };
};
