import { isDuplicateKeyError } from '@im/sdk';
import { Types, type Model } from 'mongoose';
import type { ChatModels, ConverseDoc } from '../models.ts';

/** What the DM index must hear of: a DM opened (or adopted) between these members. */
export interface DmOpenedListener {
  opened(dmId: string, memberIds: readonly string[]): Promise<void>;
}

/** A DM's record as readers need it: who is in it and when it was last active. */
export type DmRecord = Pick<
  ConverseDoc,
  '_id' | 'lastSeq' | 'memberIds' | 'createdAt' | 'lastMessageAt' | 'lastManySeq'
>;

const LISTED = { lastSeq: 1, memberIds: 1, createdAt: 1, lastMessageAt: 1, lastManySeq: 1 } as const;

/**
 * DMs in the converses collection (one document per pair, beside the
 * counters every converse has). Opening one updates the DM index inside the
 * write, so no caller can leave the index without it.
 */
export class DmRecords {
  readonly #converses: Model<ConverseDoc>;
  readonly #index: DmOpenedListener;

  constructor(converses: Model<ConverseDoc>, index: DmOpenedListener) {
    this.#converses = converses;
    this.#index = index;
  }

  /** The DM of two users: the same one every time (one per pair, the unique dmKey decides a race). */
  async open(members: readonly [string, string]): Promise<ConverseDoc> {
    const sorted = [...members].sort();
    const dmKey = sorted.join(':');
    let doc: ConverseDoc;
    try {
      doc = (await this.#converses
        .findOneAndUpdate(
          { dmKey },
          {
            $setOnInsert: {
              dmKey,
              type: 'dm',
              memberIds: sorted.map((id) => new Types.ObjectId(id)),
              lastSeq: 0,
              createdAt: new Date(),
            },
          },
          { upsert: true, new: true },
        )
        .lean<ConverseDoc>())!;
    } catch (err) {
      // Both sides opened it at once: the unique dmKey kept one; read it.
      if (!isDuplicateKeyError(err)) throw err;
      doc = (await this.#converses.findOne({ dmKey }).lean<ConverseDoc>())!;
    }
    await this.#index.opened(doc._id.toHexString(), memberIdsOf(doc));
    return doc;
  }

  /** DMs an import wrote straight into the database, made known to the DM index (safe to repeat). */
  async adopt(converseIds: readonly string[]): Promise<ConverseDoc[]> {
    const docs = await this.#converses
      .find({ _id: { $in: converseIds.map((id) => new Types.ObjectId(id)) }, type: 'dm' })
      .lean<ConverseDoc[]>();
    for (const doc of docs) await this.#index.opened(doc._id.toHexString(), memberIdsOf(doc));
    return docs;
  }

  /** A converse's kind and, for a DM, its members; null when no converse has this id (yet). */
  kindOf(converseId: string): Promise<Pick<ConverseDoc, '_id' | 'type' | 'memberIds'> | null> {
    return this.#converses.findById(converseId, { type: 1, memberIds: 1 }).lean<ConverseDoc>();
  }

  /** The DMs of these users, in one query, with their counters and times. */
  ofMembers(userIds: readonly string[]): Promise<DmRecord[]> {
    return this.#converses.find({ memberIds: { $in: userIds }, type: 'dm' }, LISTED).lean<DmRecord[]>();
  }

  /** The ids of a user's DMs. */
  async idsOf(userId: string): Promise<Types.ObjectId[]> {
    const docs = await this.#converses
      .find({ memberIds: userId, type: 'dm' }, { _id: 1 })
      .lean<Array<{ _id: Types.ObjectId }>>();
    return docs.map((d) => d._id);
  }
}

/** A DM document's members, as strings. */
export const memberIdsOf = (doc: Pick<ConverseDoc, 'memberIds'>): string[] =>
  (doc.memberIds ?? []).map((id) => id.toHexString());

/**
 * What the DM index rebuilds from: every DM's members (a cursor), and the
 * DMs of some users. Read-only: the index is the DM records' cache.
 */
export const dmSource = ({ converses }: Pick<ChatModels, 'converses'>) => ({
  all: () => converses.find({ type: 'dm' }, { memberIds: 1 }).lean<ConverseDoc>().cursor({ batchSize: 1000 }),
  ofMembers: (userIds: readonly string[]) =>
    converses.find({ memberIds: { $in: userIds }, type: 'dm' }, { memberIds: 1 }).lean<ConverseDoc[]>(),
});

export type DmSource = ReturnType<typeof dmSource>;
