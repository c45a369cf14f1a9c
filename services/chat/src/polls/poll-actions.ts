import type { Message } from '@im/protocol';
import {
  callerId,
  conflict,
  forbidden,
  isDuplicateKeyError,
  notFound,
  type Ctx,
  type Params,
  defineActions,
} from '@im/sdk';
import { Types } from 'mongoose';
import { refuseMuted } from '../converses/access.ts';
import type { ChatDeps } from '../deps.ts';
import { messageChange } from '../messages/message-change.ts';
import type { MessageDoc } from '../models.ts';
import type { PollVoteDoc } from '../personal/personal-models.ts';
import { personalParams } from '../personal/personal-params.ts';
import { checkedChoice } from './poll-body.ts';
import { pollClosed } from './poll-views.ts';

const closed = () => conflict('This poll is closed');

/**
 * Polls: votes and closing. A vote is one document per voter and poll
 * (pollvotes); the poll's tallies on the message follow by one update with
 * the difference between the old and the new choice, so racing votes add
 * up. Readers' own votes are looked up when read (`myVotes`); what goes to
 * the converse carries none.
 */
export const pollActions = ({ models, store, access, voters }: ChatDeps) => {
  /** A poll message the caller may read; deleted and poll-less messages are not polls. */
  const loadPoll = async (ctx: Ctx<object>, messageId: string, userId: string) => {
    const { doc, converse } = await access.requireMessage(ctx, messageId, userId);
    if (doc.deleted || !doc.poll) throw notFound('poll');
    return { doc, poll: doc.poll, converse };
  };

  /** Stores my choice, answering the one it replaced (none: I had not voted). */
  const replaceVote = async (messageId: Types.ObjectId, voterKey: string, options: number[]): Promise<number[]> => {
    if (options.length === 0) {
      const gone = await models.pollVotes.findOneAndDelete({ messageId, voterKey }).lean<PollVoteDoc>();
      return gone?.options ?? [];
    }
    try {
      const before = await models.pollVotes
        .findOneAndUpdate({ messageId, voterKey }, { $set: { options } }, { upsert: true, new: false })
        .lean<PollVoteDoc>();
      return before?.options ?? [];
    } catch (err) {
      // Two first votes raced on the upsert: the loser's is now a replacement.
      if (!isDuplicateKeyError(err)) throw err;
      return replaceVote(messageId, voterKey, options);
    }
  };

  /** The poll's tallies moved from `before` to `after` (voters named only where the poll shows them). */
  const retally = async (doc: MessageDoc, userId: string, before: number[], after: number[]) => {
    const removed = before.filter((i) => !after.includes(i));
    const added = after.filter((i) => !before.includes(i));
    if (removed.length === 0 && added.length === 0) return doc;
    const updated = await store.change.retally(doc, new Types.ObjectId(userId), { removed, added });
    return updated ?? doc;
  };

  const { viewOf, announced } = messageChange({ models, voters });

  return defineActions('chat', {
    /** My vote replaces my earlier one; an empty list withdraws it. A closed poll refuses it (409). */
    vote: {
      params: personalParams.vote,
      rateLimit: 'react',
      async handler(ctx: Ctx<Params<typeof personalParams.vote>>): Promise<Message> {
        const userId = callerId(ctx);
        const { doc, poll, converse } = await loadPoll(ctx, ctx.params.messageId, userId);
        // Who may react may vote: a muted member may not.
        refuseMuted(converse);
        if (pollClosed(poll)) throw closed();
        const chosen = checkedChoice(poll, ctx.params.options);
        const key = voters.key(doc._id.toHexString(), userId, poll.anonymous);
        const before = await replaceVote(doc._id, key, chosen);
        const updated = await retally(doc, userId, before, chosen);
        return announced(ctx, updated, converse, userId);
      },
    },

    /** The author ends the poll before its time (again: nothing changes). */
    closePoll: {
      params: personalParams.closePoll,
      async handler(ctx: Ctx<Params<typeof personalParams.closePoll>>): Promise<Message> {
        const userId = callerId(ctx);
        const { doc, poll, converse } = await loadPoll(ctx, ctx.params.messageId, userId);
        if (doc.authorId.toHexString() !== userId) throw forbidden('Only the author may close a poll');
        if (pollClosed(poll)) return viewOf(doc, userId);
        const updated = await store.change.closePoll(doc);
        if (!updated) return viewOf(doc, userId);
        return announced(ctx, updated, converse, userId);
      },
    },
  });
};
