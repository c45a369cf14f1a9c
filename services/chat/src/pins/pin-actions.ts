import type { Message } from '@im/protocol';
import { callerId, ImError, requirePermission, type Params } from '@im/sdk';
import type { ChatDeps, Ctx } from '../deps.ts';
import { messageChange } from '../messages/message-change.ts';
import { messageViews } from '../messages/message-views.ts';
import type { ChatModels, MessageDoc } from '../models.ts';
import { threadParams } from '../threads/thread-params.ts';

/** Pinned messages one converse may hold (the contract's limit). */
export const MAX_PINS = 50;

const notFound = () => new ImError('IM_ERR_NOT_FOUND', 'Message not found');

/**
 * A converse's pin counter: a slot is taken by an update whose filter reads
 * the count, so racing pins cannot pass the limit. Every way a pin ends
 * (unpin, a pin that lost its message, deletion) gives its slot back once,
 * decided by the write that removed it.
 */
async function takePinSlot(models: ChatModels, converseId: MessageDoc['converseId']): Promise<boolean> {
  const taken = await models.converses.updateOne(
    { _id: converseId, $or: [{ pinCount: { $exists: false } }, { pinCount: { $lt: MAX_PINS } }] },
    { $inc: { pinCount: 1 } },
  );
  return taken.modifiedCount === 1;
}

/** Gives a converse's pin slot back (an unpin, or a pinned message deleted). */
export const releasePinSlot = (models: ChatModels, converseId: MessageDoc['converseId']) =>
  models.converses.updateOne({ _id: converseId, pinCount: { $gt: 0 } }, { $inc: { pinCount: -1 } });

/** Pins: holders of pinMessages in groups (owner and admins hold it), either member in a DM. */
export const pinActions = ({ models, access, recent, voters }: ChatDeps) => {
  /** The message and the caller's access, when the caller may pin in its converse. */
  const loadPinnable = async (ctx: Ctx<object>, messageId: string, userId: string) => {
    const { doc, converse } = await access.requireMessage(ctx, messageId, userId);
    if (converse.kind === 'group') requirePermission(converse.permissions, 'pinMessages');
    return { doc, converse };
  };

  const { viewOf, changed } = messageChange({ models, recent, voters });

  return {
    pin: {
      params: threadParams.pin,
      async handler(ctx: Ctx<Params<typeof threadParams.pin>>): Promise<Message> {
        const userId = callerId(ctx);
        const { doc, converse } = await loadPinnable(ctx, ctx.params.messageId, userId);
        if (doc.deleted) throw notFound();
        if (doc.pinned) return viewOf(doc, userId);
        if (!(await takePinSlot(models, doc.converseId)))
          throw new ImError('IM_ERR_LIMIT', `A conversation has at most ${MAX_PINS} pinned messages`);
        const pinned = await models.messages
          .findOneAndUpdate(
            { _id: doc._id, deleted: { $ne: true }, pinned: { $exists: false } },
            { $set: { pinned: { by: userId, at: new Date(), converseId: doc.converseId } }, $inc: { v: 1 } },
            { new: true },
          )
          .lean<MessageDoc>();
        if (pinned) return changed(ctx, pinned, converse, userId);
        // Deleted or pinned by someone else meanwhile: the slot goes back.
        await releasePinSlot(models, doc.converseId);
        const now = await models.messages.findById(doc._id).lean<MessageDoc>();
        if (!now || now.deleted) throw notFound();
        return viewOf(now, userId);
      },
    },

    unpin: {
      params: threadParams.pin,
      async handler(ctx: Ctx<Params<typeof threadParams.pin>>): Promise<Message> {
        const userId = callerId(ctx);
        const { doc, converse } = await loadPinnable(ctx, ctx.params.messageId, userId);
        const unpinned = await models.messages
          .findOneAndUpdate(
            { _id: doc._id, pinned: { $exists: true } },
            { $unset: { pinned: '' }, $inc: { v: 1 } },
            { new: true },
          )
          .lean<MessageDoc>();
        if (!unpinned) return viewOf(doc, userId);
        await releasePinSlot(models, doc.converseId);
        return changed(ctx, unpinned, converse, userId);
      },
    },

    /** Newest pin first (one query on the sparse index of pins). */
    pins: {
      params: threadParams.pins,
      async handler(ctx: Ctx<Params<typeof threadParams.pins>>): Promise<Message[]> {
        const userId = callerId(ctx);
        await access.require(ctx, ctx.params.converseId, userId);
        const docs = await models.messages
          .find({ 'pinned.converseId': ctx.params.converseId })
          .sort({ 'pinned.at': -1 })
          .limit(MAX_PINS)
          .lean<MessageDoc[]>();
        return messageViews(models, docs, userId, voters);
      },
    },
  };
};
