import type { Message } from '@im/protocol';
import { callerId, ImError, isDuplicateKeyError, type Params, defineActions } from '@im/sdk';
import { Types } from 'mongoose';
import { refuseMuted } from './access.ts';
import type { ChatDeps, Ctx } from './deps.ts';
import { messageChange } from './message-change.ts';
import type { MessageDoc } from './models.ts';
import type { PollVoteDoc } from './personal-models.ts';
import { personalParams } from './personal-params.ts';
import { checkedChoice } from './poll-body.ts';
import { pollClosed } from './poll-views.ts';

const notFound = () => new ImError('IM_ERR_NOT_FOUND', 'Message not found');
const closed = () => new ImError('IM_ERR_CONFLICT', 'This poll is closed');

/**
 * Polls: votes and closing. A vote is one document per voter and poll
 * (pollvotes); the poll's tallies on the message follow by one update with
 * the difference between the old and the new choice, so racing votes add
 * up. Readers' own votes are looked up when read (`myVotes`); what goes to
 * the converse carries none.
 */
export const pollActions = ({ models, access, recent, voters }: ChatDeps) => {
  /** A poll message the caller may read; deleted and poll-less messages are not polls. */
  const loadPoll = async (ctx: Ctx<object>, messageId: string, userId: string) => {
    const { doc, converse } = await access.requireMessage(ctx, messageId, userId);
    if (doc.deleted || !doc.poll) throw notFound();
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
    const inc: Record<string, number> = { v: 1 };
    for (const i of removed) inc[`poll.options.${i}.votes`] = -1;
    for (const i of added) inc[`poll.options.${i}.votes`] = 1;
    const voter = new Types.ObjectId(userId);
    const named = !doc.poll!.anonymous;
    const updated = await models.messages
      .findOneAndUpdate(
        { _id: doc._id },
        {
          $inc: inc,
          ...(named && added.length > 0
            ? { $addToSet: Object.fromEntries(added.map((i) => [`poll.options.${i}.voterIds`, voter])) }
            : {}),
          ...(named && removed.length > 0
            ? { $pull: Object.fromEntries(removed.map((i) => [`poll.options.${i}.voterIds`, voter])) }
            : {}),
        },
        { new: true },
      )
      .lean<MessageDoc>();
    return updated ?? doc;
  };

  const { viewOf, changed } = messageChange({ models, recent, voters });

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
        return changed(ctx, updated, converse, userId);
      },
    },

    /** The author ends the poll before its time (again: nothing changes). */
    closePoll: {
      params: personalParams.closePoll,
      async handler(ctx: Ctx<Params<typeof personalParams.closePoll>>): Promise<Message> {
        const userId = callerId(ctx);
        const { doc, poll, converse } = await loadPoll(ctx, ctx.params.messageId, userId);
        if (doc.authorId.toHexString() !== userId)
          throw new ImError('IM_ERR_FORBIDDEN', 'Only the author may close a poll');
        if (pollClosed(poll)) return viewOf(doc, userId);
        const updated = await models.messages
          .findOneAndUpdate(
            { _id: doc._id, 'poll.closedAt': { $exists: false } },
            { $set: { 'poll.closedAt': new Date() }, $inc: { v: 1 } },
            { new: true },
          )
          .lean<MessageDoc>();
        if (!updated) return viewOf(doc, userId);
        return changed(ctx, updated, converse, userId);
      },
    },
  });
};
