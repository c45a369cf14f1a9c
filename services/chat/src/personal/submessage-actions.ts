import type { Submessage } from '@im/protocol';
import { announce, callerId, EVENTS, invalid, limitReached, notFound, type Ctx, type Params } from '@im/sdk';
import { Types } from 'mongoose';
import { refuseMuted } from '../converses/access.ts';
import type { ChatDeps } from '../deps.ts';
import type { SubmessageDoc } from './personal-models.ts';
import { personalParams } from './personal-params.ts';
import { audience } from '../messages/views.ts';

/** Submessages one message may carry: a widget's whole history is read at once. */
const MAX_SUBMESSAGES = 1000;

const notJson = () =>
  invalid("'content' must be a JSON object", [
    { field: 'content', type: 'invalid', message: "'content' must be a JSON object" },
  ]);

export const toSubmessage = (doc: SubmessageDoc): Submessage => ({
  id: doc._id.toHexString(),
  messageId: doc.messageId.toHexString(),
  converseId: doc.converseId.toHexString(),
  senderId: doc.senderId.toHexString(),
  content: doc.content,
  createdAt: doc.createdAt.toISOString(),
});

/**
 * The generic extension point of interactive messages: the server stores a
 * widget's small JSON events on a message and relays them to its converse;
 * what they mean is the widget's business, in the app, so a new widget
 * needs no change here. Who may react to a message may send them.
 */
export const submessageActions = ({ models, access }: ChatDeps) => ({
  postSubmessage: {
    params: personalParams.postSubmessage,
    rateLimit: 'react' as const,
    async handler(ctx: Ctx<Params<typeof personalParams.postSubmessage>>): Promise<Submessage> {
      const userId = callerId(ctx);
      const { doc, converse } = await access.requireMessage(ctx, ctx.params.messageId, userId);
      if (doc.deleted) throw notFound('message');
      refuseMuted(converse);
      let parsed: unknown;
      try {
        parsed = JSON.parse(ctx.params.content);
      } catch {
        throw notJson();
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw notJson();
      if ((await models.submessages.countDocuments({ messageId: doc._id })) >= MAX_SUBMESSAGES)
        throw limitReached(`A message carries at most ${MAX_SUBMESSAGES} submessages`);
      const created = await models.submessages.create({
        messageId: doc._id,
        converseId: doc.converseId,
        senderId: new Types.ObjectId(userId),
        content: ctx.params.content,
        createdAt: new Date(),
      });
      const submessage = toSubmessage(created.toObject<SubmessageDoc>());
      announce(ctx, EVENTS.submessage, { submessage, ...audience(converse) });
      return submessage;
    },
  },

  /** A message's submessages in the order they came (what a widget reduces when it is shown). */
  submessages: {
    params: personalParams.submessages,
    async handler(ctx: Ctx<Params<typeof personalParams.submessages>>): Promise<Submessage[]> {
      const userId = callerId(ctx);
      const { doc } = await access.requireMessage(ctx, ctx.params.messageId, userId);
      if (doc.deleted) return [];
      const docs = await models.submessages
        .find({ messageId: doc._id })
        .sort({ _id: 1 })
        .limit(MAX_SUBMESSAGES)
        .lean<SubmessageDoc[]>();
      return docs.map(toSubmessage);
    },
  },
});
