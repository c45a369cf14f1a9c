import type { Message } from '@im/protocol';
import type { Types } from 'mongoose';
import type { ChatModels, MessageDoc, ReactionDoc } from './models.ts';
import { toMessage } from './views.ts';

/** Messages as `userId` sees them: with `me` on the reactions they made (one query, none without reactions). */
export async function messageViews(models: ChatModels, docs: MessageDoc[], userId: string): Promise<Message[]> {
  const reacted: Types.ObjectId[] = docs
    .filter((d) => Object.keys(d.reactionCounts ?? {}).length > 0)
    .map((d) => d._id);
  const mine = new Map<string, Set<string>>();
  if (reacted.length > 0) {
    const rows = await models.reactions
      .find({ messageId: { $in: reacted }, userId }, { messageId: 1, emoji: 1 })
      .lean<ReactionDoc[]>();
    for (const r of rows) {
      const key = r.messageId.toHexString();
      (mine.get(key) ?? mine.set(key, new Set()).get(key)!).add(r.emoji);
    }
  }
  return docs.map((d) => toMessage(d, mine.get(d._id.toHexString())));
}
