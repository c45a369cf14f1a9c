import type { BlockedUser } from '@im/protocol';
import {
  call,
  callerId,
  invalid,
  isDuplicateKeyError,
  limitReached,
  notFound,
  type ActionParams,
  type ActionResult,
  type Ctx,
} from '@im/sdk';
import { Types } from 'mongoose';
import { userParams } from '../params.ts';
import type { BlockDoc, BlockModel } from './block-model.ts';

/** Most users one may block (a list that long is spam handling, which moderation does better). */
const MAX_BLOCKS = 1000;

const toBlocked = (doc: BlockDoc): BlockedUser => ({
  userId: doc.blockedId.toHexString(),
  createdAt: doc.createdAt.toISOString(),
});

/**
 * Blocking: the blocked user cannot open a DM with the blocker or send them
 * DM messages (nor the blocker them, until they unblock), and the blocker
 * hears of none of their messages. The blocked user is not told; the app
 * hides their group messages from the blocker.
 */
export const blockActions = ({ blocks }: { blocks: BlockModel }) => ({
  block: {
    params: userParams.block,
    rateLimit: 'moderate' as const,
    async handler(ctx: Ctx<ActionParams<'user.block'>>): Promise<void> {
      const me = callerId(ctx);
      const { userId } = ctx.params;
      if (userId === me)
        throw invalid('You cannot block yourself', [
          { field: 'userId', type: 'self', message: 'You cannot block yourself' },
        ]);
      const found = (await call(ctx, 'user.getMany', { ids: [userId], includeInactive: true }))[userId];
      if (!found) throw notFound('user');
      if ((await blocks.countDocuments({ blockerId: me })) >= MAX_BLOCKS)
        throw limitReached(`You can block at most ${MAX_BLOCKS} users`);
      try {
        await blocks.collection.insertOne({
          _id: new Types.ObjectId(),
          blockerId: new Types.ObjectId(me),
          blockedId: new Types.ObjectId(userId),
          createdAt: new Date(),
        });
      } catch (err) {
        // Blocked already: the same answer (the block stands).
        if (!isDuplicateKeyError(err)) throw err;
      }
    },
  },

  unblock: {
    params: userParams.unblock,
    rateLimit: 'moderate' as const,
    async handler(ctx: Ctx<ActionParams<'user.unblock'>>): Promise<void> {
      const me = callerId(ctx);
      await blocks.deleteOne({ blockerId: me, blockedId: ctx.params.userId });
    },
  },

  blocks: {
    params: userParams.blocks,
    async handler(ctx: Ctx): Promise<BlockedUser[]> {
      const docs = await blocks
        .find({ blockerId: callerId(ctx) })
        .sort({ createdAt: -1 })
        .limit(MAX_BLOCKS)
        .lean<BlockDoc[]>();
      return docs.map(toBlocked);
    },
  },

  /** Whether either of two users blocked the other, and who: the chat service asks before a DM opens or a DM message is sent. */
  blockBetween: {
    visibility: 'public' as const,
    params: userParams.blockBetween,
    async handler(ctx: Ctx<ActionParams<'user.blockBetween'>>): Promise<ActionResult<'user.blockBetween'>> {
      const { from, to } = ctx.params;
      const docs = await blocks
        .find(
          {
            $or: [
              { blockerId: from, blockedId: to },
              { blockerId: to, blockedId: from },
            ],
          },
          { blockerId: 1 },
        )
        .lean<Pick<BlockDoc, 'blockerId'>[]>();
      const blockers = new Set(docs.map((d) => d.blockerId.toHexString()));
      return { byFrom: blockers.has(from), byTo: blockers.has(to) };
    },
  },

  /** Of these users, those who blocked `userId` (notifications of their messages skip them). */
  blockersAmong: {
    visibility: 'public' as const,
    params: userParams.blockersAmong,
    async handler(ctx: Ctx<ActionParams<'user.blockersAmong'>>): Promise<string[]> {
      const { userId, ids } = ctx.params;
      if (ids.length === 0) return [];
      const docs = await blocks
        .find({ blockedId: userId, blockerId: { $in: ids } }, { blockerId: 1 })
        .lean<Pick<BlockDoc, 'blockerId'>[]>();
      return docs.map((d) => d.blockerId.toHexString());
    },
  },
});
