import type { Message } from '@im/protocol';
import { announce, call, callerId, EVENTS, invalid, notFound, type Ctx, type Params } from '@im/sdk';
import { Types } from 'mongoose';
import { refuseUnableToPost } from '../converses/access.ts';
import { refuseBlockedDmSend } from '../converses/blocked-dm.ts';
import type { ChatDeps } from '../deps.ts';
import type { MessageDoc } from '../models.ts';
import { chatParams } from '../params.ts';
import { createdAudience, toMessage } from './views.ts';

/**
 * Forwarding: a copy of a message the caller can read, sent by them into a
 * converse they can write in (the checks of a send: mutes, read-only
 * panels, private panels, the send rate limit). The copy names its origin,
 * the first one when the message is itself a forward. It notifies nobody
 * it names: its mentions were written by someone else for another
 * audience. Its files become readable in the target, as if attached there.
 */
export const forwardActions = ({ store, access }: ChatDeps) => ({
  forward: {
    params: chatParams.forward,
    rateLimit: 'send' as const,
    async handler(ctx: Ctx<Params<typeof chatParams.forward>>): Promise<Message> {
      const userId = callerId(ctx);
      const { messageId, converseId } = ctx.params;
      const { doc: original } = await access.requireMessage(ctx, messageId, userId);
      if (original.deleted) throw notFound('message');
      if (original.call) throw invalid('A call record cannot be forwarded');
      const { access: target } = await access.requireWithMembers(ctx, converseId, userId, []);
      refuseUnableToPost(target);
      await refuseBlockedDmSend(ctx, target, userId);
      const fileIds = original.attachments.map((id) => id.toHexString());
      if (fileIds.length > 0)
        await call(ctx, 'file.share', {
          fileIds,
          fromConverseId: original.converseId.toHexString(),
          toConverseId: converseId,
        });
      const { doc } = await store.append({
        converseId: new Types.ObjectId(converseId),
        authorId: new Types.ObjectId(userId),
        content: original.content,
        mentions: [],
        attachments: original.attachments,
        ...(original.imageAttached ? { imageAttached: true } : {}),
        forwarded: original.forwarded ?? originOf(original),
      });
      const message = toMessage(doc);
      announce(ctx, EVENTS.messageCreated, { message, ...createdAudience(target) });
      return message;
    },
  },
});

const originOf = (doc: MessageDoc): NonNullable<MessageDoc['forwarded']> => ({
  messageId: doc._id,
  converseId: doc.converseId,
  authorId: doc.authorId,
  createdAt: doc.createdAt,
});
