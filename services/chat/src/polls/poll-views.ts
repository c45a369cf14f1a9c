import type { Poll } from '@im/protocol';
import type { PollDoc } from '../models.ts';

/** Closed by its author, or its closing time passed (decided when read, so no timer is needed). */
export const pollClosed = (poll: PollDoc, now = Date.now()): boolean =>
  poll.closedAt !== undefined || (poll.closesAt !== undefined && poll.closesAt.getTime() <= now);

/**
 * The public poll. `myVotes` are the reader's own (empty in what goes to the
 * whole converse); voters are named only in a poll that shows them.
 */
export function pollView(poll: PollDoc, myVotes: number[] = []): Poll {
  return {
    question: poll.question,
    options: poll.options.map((o) => ({
      text: o.text,
      votes: o.votes,
      ...(poll.anonymous ? {} : { voterIds: (o.voterIds ?? []).map((id) => id.toHexString()) }),
    })),
    multiple: poll.multiple,
    anonymous: poll.anonymous,
    ...(poll.closesAt ? { closesAt: poll.closesAt.toISOString() } : {}),
    closed: pollClosed(poll),
    myVotes,
  };
}
