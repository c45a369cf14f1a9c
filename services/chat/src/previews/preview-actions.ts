import { announce, callerId, EVENTS, ImError, type ActionParams, type ActionResult, type Params } from '@im/sdk';
import { Types } from 'mongoose';
import type { ChatDeps, Ctx } from '../deps.ts';
import type { MessageDoc } from '../models.ts';
import { dropPreviewImage } from './preview-image.ts';
import { previewParams } from './preview-params.ts';
import { audience, toMessage } from '../messages/views.ts';

/**
 * Link previews on messages: the file service fetches the page (it stores the
 * image) and hands the card here; the author may take it off again.
 */
export const previewActions = ({ models, access, recent }: ChatDeps) => {
  /** Stores the change, then tells the converse (message:updated). */
  const publish = async (ctx: Ctx<object>, updated: MessageDoc) => {
    await recent.changed(updated);
    const converse = await access.resolve(ctx, updated.converseId.toHexString(), updated.authorId.toHexString());
    announce(ctx, EVENTS.messageUpdated, { message: toMessage(updated), ...audience(converse) });
  };

  return {
    /** One fetch per message, whichever file node heard of it first (the event reaches them all). */
    claimPreview: {
      visibility: 'public' as const,
      params: previewParams.claim,
      async handler(ctx: Ctx<ActionParams<'chat.claimPreview'>>): Promise<ActionResult<'chat.claimPreview'>> {
        const { modifiedCount } = await models.messages.updateOne(
          { _id: ctx.params.messageId, previewUrl: { $exists: false }, deleted: { $ne: true } },
          { $set: { previewUrl: ctx.params.url } },
        );
        return modifiedCount === 1;
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
        const updated = await models.messages
          .findOneAndUpdate(
            { _id: ctx.params.messageId, previewUrl: url, deleted: { $ne: true }, preview: { $exists: false } },
            {
              $set: { preview: { ...card, ...(imageFileId ? { imageFileId: new Types.ObjectId(imageFileId) } : {}) } },
              $inc: { v: 1 },
            },
            { new: true },
          )
          .lean<MessageDoc>();
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
        if (doc.deleted) throw new ImError('IM_ERR_NOT_FOUND', 'Message not found');
        if (doc.authorId.toHexString() !== userId)
          throw new ImError('IM_ERR_FORBIDDEN', "Only the author may remove a message's preview");
        // An empty previewUrl: a fetch still under way can neither claim it nor bring the card back.
        // The card as this update found it (one set meanwhile included): its image goes with it.
        const before = await models.messages
          .findOneAndUpdate(
            { _id: doc._id },
            { $unset: { preview: '' }, $set: { previewUrl: '' }, $inc: { v: 1 } },
            { new: false },
          )
          .lean<MessageDoc>();
        if (!before?.preview) return;
        const updated = await models.messages.findById(doc._id).lean<MessageDoc>();
        if (updated) await publish(ctx, updated);
        await dropPreviewImage(ctx, before.preview);
      },
    },
  };
};
