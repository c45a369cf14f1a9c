import type { Message } from '@im/protocol';
import type { Types } from 'mongoose';
import type { ChatModels, MessageDoc, ReactionDoc } from '../models.ts';
import type { PollVoters } from '../polls/poll-voters.ts';
import { toMessage } from './views.ts';

/**
 * Messages as `userId` sees them: with `me` on the reactions they made and
 * their own votes in polls (one query each, none without reactions or polls).
 */
export async function messageViews(
  models: Pick<ChatModels, 'reactions'>,
  docs: MessageDoc[],
  userId: string,
  voters: PollVoters,
): Promise<Message[]> {
  const reacted: Types.ObjectId[] = docs
    .filter((d) => Object.keys(d.reactionCounts ?? {}).length > 0)
    .map((d) => d._id);
  const mine = new Map<string, Set<string>>();
  const [rows, votes] = await Promise.all([
    reacted.length > 0
      ? models.reactions.find({ messageId: { $in: reacted }, userId }, { messageId: 1, emoji: 1 }).lean<ReactionDoc[]>()
      : Promise.resolve([]),
    voters.mine(docs, userId),
  ]);
  for (const r of rows) {
    const key = r.messageId.toHexString();
    (mine.get(key) ?? mine.set(key, new Set()).get(key)!).add(r.emoji);
  }
  return docs.map((d) => toMessage(d, mine.get(d._id.toHexString()), votes.get(d._id.toHexString())));
}
