import { createHmac } from 'node:crypto';
import type { Message } from '@im/protocol';
import { Types, type Model } from 'mongoose';
import type { MessageDoc } from '../models.ts';
import type { PollVoteDoc } from '../personal/personal-models.ts';

/**
 * Who a stored vote belongs to. A poll that shows its voters keys a vote by
 * the voter's id. An anonymous poll keys it by an HMAC of poll and voter
 * under the server's SECRET: the same person finds their vote again (to
 * replace or withdraw it, and to see `myVotes`), but the database holds no
 * user id for it, no time it was cast, and the key differs from poll to
 * poll, so votes cannot be linked across polls either. Answers, events and
 * the audit log never name an anonymous poll's voters. What remains: someone
 * holding both a copy of the database and SECRET could compute the keys of
 * each member and compare; the operator of the server can, nobody else can.
 */
export class PollVoters {
  readonly #secret: string;
  readonly #votes: Model<PollVoteDoc>;

  constructor(secret: string, votes: Model<PollVoteDoc>) {
    this.#secret = secret;
    this.#votes = votes;
  }

  /** The key of `userId`'s vote in the poll on message `messageId`. */
  key(messageId: string, userId: string, anonymous: boolean): string {
    if (!anonymous) return userId;
    return createHmac('sha256', this.#secret).update(`poll-vote:${messageId}:${userId}`).digest('base64url');
  }

  /** The reader's votes in the polls among `docs` (one query; none without polls). */
  async mine(docs: ReadonlyArray<Pick<MessageDoc, '_id' | 'poll' | 'deleted'>>, userId: string) {
    const mine = new Map<string, number[]>();
    const polls = docs.filter((d) => d.poll && !d.deleted);
    if (polls.length === 0) return mine;
    const wanted = polls.map((d) => ({
      messageId: d._id,
      voterKey: this.key(d._id.toHexString(), userId, d.poll!.anonymous),
    }));
    const rows = await this.#votes.find({ $or: wanted }, { messageId: 1, options: 1 }).lean<PollVoteDoc[]>();
    for (const r of rows)
      mine.set(
        r.messageId.toHexString(),
        [...r.options].sort((a, b) => a - b),
      );
    return mine;
  }

  /** Public messages (history pages, sync, search) with the reader's own votes filled in. */
  async fill(messages: Message[], userId: string): Promise<Message[]> {
    const polls = messages.filter((m) => m.poll);
    if (polls.length === 0) return messages;
    const mine = await this.mine(
      polls.map((m) => ({
        _id: new Types.ObjectId(m.id),
        poll: { anonymous: m.poll!.anonymous } as MessageDoc['poll'],
      })),
      userId,
    );
    return messages.map((m) =>
      m.poll && mine.has(m.id) ? { ...m, poll: { ...m.poll, myVotes: mine.get(m.id)! } } : m,
    );
  }
}
