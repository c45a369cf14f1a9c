import { createHash, randomBytes } from 'node:crypto';
import type { FeedToken } from '@im/protocol';
import { announce, callerId, EVENTS, ImError, type ActionParams, type ActionResult, type Ctx } from '@im/sdk';
import type { UserDeps } from './deps.ts';
import type { UserDoc } from './models.ts';
import { userParams } from './params.ts';

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Personal feed tokens: one per user, in the path of the Atom feeds of
 * their converses (feed readers cannot send headers). Only a hash is stored;
 * issuing a new token replaces the hash, so the old token stops working.
 */
export const feedTokenActions = ({ users }: UserDeps) => ({
  issueFeedToken: {
    params: userParams.issueFeedToken,
    rateLimit: 'password' as const,
    async handler(ctx: Ctx): Promise<FeedToken> {
      const userId = callerId(ctx);
      const token = randomBytes(32).toString('base64url');
      const { matchedCount } = await users.updateOne(
        { _id: userId, status: 'active' },
        { $set: { feedTokenHash: hashOf(token) } },
      );
      if (matchedCount === 0) throw new ImError('IM_ERR_UNAUTHORIZED');
      // Gateways remember whose token is whose: the old one must stop at once.
      announce(ctx, EVENTS.feedTokenReplaced, { userId });
      return { token };
    },
  },

  feedTokenOwner: {
    visibility: 'public' as const,
    params: userParams.feedTokenOwner,
    async handler(ctx: Ctx<ActionParams<'user.feedTokenOwner'>>): Promise<ActionResult<'user.feedTokenOwner'>> {
      const user = await users
        .findOne({ feedTokenHash: hashOf(ctx.params.token), status: 'active' }, { _id: 1 })
        .lean<Pick<UserDoc, '_id'>>();
      return user ? user._id.toHexString() : null;
    },
  },
});
