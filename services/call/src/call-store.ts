import type { CallParticipant } from '@im/protocol';
import { isDuplicateKeyError } from '@im/sdk';
import type { CallDoc, CallModel, ParticipantDoc } from './models.ts';

/** The participants as clients see them, in the order they joined. */
export const toParticipants = (doc: Pick<CallDoc, 'participants'> | null): CallParticipant[] =>
  (doc?.participants ?? []).map((p) => ({
    userId: p.userId,
    joinedAt: p.joinedAt.toISOString(),
    audio: p.audio,
    video: p.video,
    screen: p.screen,
  }));

/** What a join or a track change did: the call now, and whether this join started it. */
export interface Present {
  call: CallDoc;
  started: boolean;
}

/**
 * The calls going on, one document per converse, kept from LiveKit's
 * webhooks. LiveKit sends a room's events one at a time, in order, and
 * retries one whose answer did not arrive, so each operation is idempotent
 * (a participant is known by LiveKit's `sid` for this connection).
 */
export class CallStore {
  readonly #calls: CallModel;

  constructor(calls: CallModel) {
    this.#calls = calls;
  }

  get(converseId: string): Promise<CallDoc | null> {
    return this.#calls.findById(converseId).lean<CallDoc>();
  }

  /**
   * Someone is in the call (joined, or published or stopped a track): their
   * entry is set to `p`. A first join creates the call; the same person on a
   * new connection replaces their old one (LiveKit lets one identity in once).
   */
  async present(
    converseId: string,
    p: ParticipantDoc,
    home: { memberIds?: string[]; groupId?: string },
  ): Promise<Present> {
    const updated = await this.#calls
      .findOneAndUpdate(
        { _id: converseId, 'participants.sid': p.sid },
        {
          $set: { 'participants.$.audio': p.audio, 'participants.$.video': p.video, 'participants.$.screen': p.screen },
        },
        { new: true },
      )
      .lean<CallDoc>();
    if (updated) return { call: updated, started: false };
    await this.#calls.updateOne({ _id: converseId }, { $pull: { participants: { userId: p.userId } } });
    try {
      const call = await this.#calls
        .findOneAndUpdate(
          { _id: converseId },
          {
            $push: { participants: p },
            $addToSet: { everJoined: p.userId },
            $setOnInsert: {
              startedAt: p.joinedAt,
              callerId: p.userId,
              openedBy: p.sid,
              ...(home.memberIds ? { memberIds: home.memberIds } : {}),
              ...(home.groupId ? { groupId: home.groupId } : {}),
            },
          },
          { new: true, upsert: true },
        )
        .lean<CallDoc>();
      // Whether this join made the document (its connection is the one that opened the call).
      return { call: call!, started: call!.openedBy === p.sid };
    } catch (err) {
      // Two nodes creating the same call at once: the other made it; join it.
      if (!isDuplicateKeyError(err)) throw err;
      return this.present(converseId, p, home);
    }
  }

  /** Someone left (connection `sid`): the call as it is now (no participants left: it is over, see `end`). */
  left(converseId: string, sid: string): Promise<CallDoc | null> {
    return this.#calls
      .findOneAndUpdate({ _id: converseId }, { $pull: { participants: { sid } } }, { new: true })
      .lean<CallDoc>();
  }

  /**
   * Removes a call that is over: when nobody is left in it (`onlyIfEmpty`),
   * or whoever it still lists (LiveKit closed the room; their leaves were
   * lost). The removed call, or null when another handler removed it first
   * or someone joined meanwhile: exactly one caller gets it.
   */
  end(converseId: string, onlyIfEmpty: boolean): Promise<CallDoc | null> {
    return this.#calls
      .findOneAndDelete({ _id: converseId, ...(onlyIfEmpty ? { participants: { $size: 0 } } : {}) })
      .lean<CallDoc>();
  }

  /** A DM member declined: remembered for the record of its end. False when no call is going on. */
  async declined(converseId: string, userId: string): Promise<boolean> {
    const { matchedCount } = await this.#calls.updateOne(
      { _id: converseId, 'participants.0': { $exists: true } },
      { $set: { declinedBy: userId } },
    );
    return matchedCount > 0;
  }

  /** Which of `converseIds` have a call going on. */
  async ongoing(converseIds: string[]): Promise<string[]> {
    if (converseIds.length === 0) return [];
    const docs = await this.#calls.find({ _id: { $in: converseIds } }, { _id: 1 }).lean<Array<Pick<CallDoc, '_id'>>>();
    return docs.map((d) => d._id.toHexString());
  }

  /** The DM calls going on that `userId` is a member of and has not joined or declined: they ring for them. */
  ringingFor(userId: string): Promise<Array<Pick<CallDoc, '_id' | 'callerId' | 'startedAt'>>> {
    return this.#calls
      .find(
        {
          memberIds: userId,
          everJoined: { $ne: userId },
          declinedBy: { $exists: false },
          'participants.0': { $exists: true },
        },
        { callerId: 1, startedAt: 1 },
      )
      .sort({ startedAt: 1 })
      .limit(20)
      .lean<Array<Pick<CallDoc, '_id' | 'callerId' | 'startedAt'>>>();
  }

  /** Every call this store believes is going on, with its connections. */
  all(): Promise<Array<Pick<CallDoc, '_id' | 'participants'>>> {
    return this.#calls.find({}, { participants: 1 }).lean<Array<Pick<CallDoc, '_id' | 'participants'>>>();
  }

  /** The calls `userId` is in now, among `converseIds` and in `groupId`'s panels when given. */
  async callsOf(userId: string, converseIds?: string[], groupId?: string): Promise<string[]> {
    const docs = await this.#calls
      .find(
        {
          'participants.userId': userId,
          ...(converseIds ? { _id: { $in: converseIds } } : {}),
          ...(groupId ? { groupId } : {}),
        },
        { _id: 1 },
      )
      .lean<Array<Pick<CallDoc, '_id'>>>();
    return docs.map((d) => d._id.toHexString());
  }
}
