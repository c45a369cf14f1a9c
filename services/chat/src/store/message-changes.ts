import { firstLink } from '@im/sdk';
import { Types, type FilterQuery, type UpdateQuery } from 'mongoose';
import type { ManyFlags } from '../messages/mention-many.ts';
import type { ChatModels, MessageDoc } from '../models.ts';
import type { ConverseCounters } from './converse-counters.ts';
import { mentionsOf, rerecordMentions, unrecordMentions } from './mention-seqs.ts';
import type { RecentMessages } from './recent-messages.ts';
import { emptied } from './tombstone.ts';

/** Different emoji one message may carry (the contract's limit). */
export const MAX_REACTION_KINDS = 20;

/** The stored message before and after a change (after: null if it vanished meanwhile). */
export interface BeforeAfter {
  before: MessageDoc;
  after: MessageDoc | null;
}

/**
 * Every change to a stored message. Each one moves the message's version
 * (`v`: which of two versions is newer) and tells the recent tail
 * (`changed`, which moves the converse's `rev`) inside the write, so no
 * caller can forget either and serve a stale page.
 */
export class MessageChanges {
  readonly #models: ChatModels;
  readonly #recent: RecentMessages;
  readonly #counters: ConverseCounters;

  constructor(models: ChatModels, recent: RecentMessages, counters: ConverseCounters) {
    this.#models = models;
    this.#recent = recent;
    this.#counters = counters;
  }

  /** One update of the message `filter` finds, with its version moved; the new version, null if none matched. */
  async #change(filter: FilterQuery<MessageDoc>, update: UpdateQuery<MessageDoc>): Promise<MessageDoc | null> {
    const after = await this.#models.messages
      .findOneAndUpdate(filter, bumped(update), { new: true })
      .lean<MessageDoc>();
    if (after) await this.#recent.changed(after);
    return after;
  }

  /** As #change, answering the version the update found too (what it held before, not when read earlier). */
  async #changeFromBefore(
    filter: FilterQuery<MessageDoc>,
    update: UpdateQuery<MessageDoc>,
  ): Promise<BeforeAfter | null> {
    const before = await this.#models.messages
      .findOneAndUpdate(filter, bumped(update), { new: false })
      .lean<MessageDoc>();
    if (!before) return null;
    const after = await this.#models.messages.findById(before._id).lean<MessageDoc>();
    if (after) await this.#recent.changed(after);
    return { before, after };
  }

  /**
   * The author's new text, its mentions and mentions of many. An edit that
   * drops (or changes) the link takes the preview off first (and keeps a
   * fetch under way from setting it: an empty previewUrl matches no link);
   * `droppedPreview` is the card it had, whose image the caller removes.
   * Null: the message was deleted meanwhile.
   */
  async edit(
    doc: MessageDoc,
    change: { content: string; mentions: readonly string[]; many: ManyFlags },
  ): Promise<{ updated: MessageDoc; droppedPreview?: MessageDoc['preview'] } | null> {
    const { content, mentions, many } = change;
    const left =
      firstLink(doc.content)?.href === firstLink(content)?.href
        ? undefined
        : await this.#models.messages
            .findOneAndUpdate(
              { _id: doc._id, previewUrl: { $ne: '' } },
              { $unset: { preview: '' }, $set: { previewUrl: '' } },
              { new: false, projection: { preview: 1 } },
            )
            .lean<Pick<MessageDoc, 'preview'>>();
    const updated = await this.#change(
      { _id: doc._id, authorId: doc.authorId, deleted: { $ne: true } },
      {
        $set: {
          content,
          mentions: mentions.map((id) => new Types.ObjectId(id)),
          editedAt: new Date(),
          ...many.set,
        },
        ...(many.unset.length > 0 ? { $unset: Object.fromEntries(many.unset.map((k) => [k, ''])) } : {}),
      },
    );
    if (!updated) return null;
    await rerecordMentions(this.#models.reads, doc, updated);
    await this.#counters.noteManySeq(updated);
    return { updated, ...(left?.preview ? { droppedPreview: left.preview } : {}) };
  }

  /**
   * Empties a message, keeping its seq (a tombstone), with everything hung on
   * it: its pin slot, reactions, votes, widget events and kept mentions, and
   * its thread root's reply count. Null: it was deleted already.
   */
  async tombstone(doc: MessageDoc): Promise<(BeforeAfter & { root: MessageDoc | null }) | null> {
    const changed = await this.#changeFromBefore(
      { _id: doc._id, deleted: { $ne: true } },
      {
        $set: { ...emptied(), reactionKinds: 0 },
        // Its @all / @here go with it: no unread summary counts it any more.
        $unset: { mentionsAll: '', mentionsHere: '', mentionsMany: '', hereIds: '', pinned: '', poll: '' },
      },
    );
    if (!changed) return null;
    const { before } = changed;
    // Deleting a pinned message unpins it: its slot goes back to the converse.
    if (before.pinned) await this.#counters.releasePinSlot(doc.converseId);
    await this.#models.reactions.deleteMany({ messageId: doc._id });
    // A poll's votes and a widget's events go with it.
    if (before.poll) await this.#models.pollVotes.deleteMany({ messageId: doc._id });
    await this.#models.submessages.deleteMany({ messageId: doc._id });
    await unrecordMentions(this.#models.reads, mentionsOf(before));
    const root = await this.threadUnreplied(doc);
    return { ...changed, root };
  }

  /**
   * Counts one more `emoji` on a message. An emoji already there just counts;
   * a new one only while the message has fewer than MAX_REACTION_KINDS, which
   * the update's own filter decides, so racing reactions cannot pass it.
   * Null: the message is full.
   */
  async countReaction(id: Types.ObjectId, emoji: string): Promise<MessageDoc | null> {
    const path = `reactionCounts.${emoji}`;
    const more = () => this.#change({ _id: id, [path]: { $gt: 0 } }, { $inc: { [path]: 1 } });
    const counted = await more();
    if (counted) return counted;
    const added = await this.#change(
      {
        _id: id,
        [path]: { $not: { $gt: 0 } },
        $or: [{ reactionKinds: { $exists: false } }, { reactionKinds: { $lt: MAX_REACTION_KINDS } }],
      },
      { $set: { [path]: 1 }, $inc: { reactionKinds: 1 } },
    );
    // Not added: either someone added the same emoji meanwhile (count on it) or the message is full.
    return added ?? more();
  }

  /** Counts one `emoji` fewer; the last one takes the emoji off, freeing its place. The message as it is now. */
  async uncountReaction(id: Types.ObjectId, emoji: string): Promise<MessageDoc | null> {
    const path = `reactionCounts.${emoji}`;
    const fewer = await this.#change({ _id: id, [path]: { $gt: 1 } }, { $inc: { [path]: -1 } });
    if (fewer) return fewer;
    const gone = await this.#change({ _id: id, [path]: 1 }, { $unset: { [path]: '' }, $inc: { reactionKinds: -1 } });
    return gone ?? this.#models.messages.findById(id).lean<MessageDoc>();
  }

  /**
   * Pins a live, unpinned message, taking one of its converse's slots.
   * 'full': the converse has MAX_PINS already; null: deleted or pinned meanwhile.
   */
  async pin(doc: MessageDoc, by: string): Promise<MessageDoc | 'full' | null> {
    if (!(await this.#counters.takePinSlot(doc.converseId))) return 'full';
    const pinned = await this.#change(
      { _id: doc._id, deleted: { $ne: true }, pinned: { $exists: false } },
      { $set: { pinned: { by, at: new Date(), converseId: doc.converseId } } },
    );
    // Deleted or pinned by someone else meanwhile: the slot goes back.
    if (!pinned) await this.#counters.releasePinSlot(doc.converseId);
    return pinned;
  }

  /** Unpins, giving the slot back. Null: it was not pinned. */
  async unpin(doc: MessageDoc): Promise<MessageDoc | null> {
    const unpinned = await this.#change({ _id: doc._id, pinned: { $exists: true } }, { $unset: { pinned: '' } });
    if (unpinned) await this.#counters.releasePinSlot(doc.converseId);
    return unpinned;
  }

  /**
   * A reply was stored (once per stored reply, never for a retried send):
   * one atomic update of the root's summary. The updated root, null if it vanished.
   */
  threadReplied(reply: MessageDoc, rootId: Types.ObjectId): Promise<MessageDoc | null> {
    return this.#change(
      { _id: rootId },
      {
        $inc: { 'thread.replyCount': 1 },
        $max: { 'thread.lastReplyAt': reply.createdAt },
        $addToSet: { 'thread.participantIds': reply.authorId },
      },
    );
  }

  /**
   * A reply was deleted: its root counts one reply fewer (participants and
   * the last reply time stay: they say who took part and when it was last
   * active). The updated root, null if none changed.
   */
  async threadUnreplied(reply: MessageDoc): Promise<MessageDoc | null> {
    if (!reply.threadId) return null;
    return this.#change(
      { _id: reply.threadId, 'thread.replyCount': { $gt: 0 } },
      { $inc: { 'thread.replyCount': -1 } },
    );
  }

  /** A voter's choice moved: one vote off each removed option, one on each added (named where the poll shows voters). */
  async retally(
    doc: MessageDoc,
    voter: Types.ObjectId,
    change: { removed: readonly number[]; added: readonly number[] },
  ): Promise<MessageDoc | null> {
    const { removed, added } = change;
    const inc: Record<string, number> = {};
    for (const i of removed) inc[`poll.options.${i}.votes`] = -1;
    for (const i of added) inc[`poll.options.${i}.votes`] = 1;
    const named = !doc.poll!.anonymous;
    return this.#change(
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
    );
  }

  /** Closes a poll early. Null: it was closed already. */
  closePoll(doc: MessageDoc): Promise<MessageDoc | null> {
    return this.#change(
      { _id: doc._id, 'poll.closedAt': { $exists: false } },
      { $set: { 'poll.closedAt': new Date() } },
    );
  }

  /**
   * A link preview fetcher claims the message (one fetch, whichever node heard first).
   * No version moves: nothing readers see changed.
   */
  async claimPreview(messageId: string, url: string): Promise<boolean> {
    const { modifiedCount } = await this.#models.messages.updateOne(
      { _id: messageId, previewUrl: { $exists: false }, deleted: { $ne: true } },
      { $set: { previewUrl: url } },
    );
    return modifiedCount === 1;
  }

  /** The fetched card, if the message still waits for this very link's card. */
  setPreview(messageId: string, preview: NonNullable<MessageDoc['preview']>): Promise<MessageDoc | null> {
    return this.#change(
      { _id: messageId, previewUrl: preview.url, deleted: { $ne: true }, preview: { $exists: false } },
      { $set: { preview } },
    );
  }

  /**
   * Takes the card off for good: an empty previewUrl keeps a fetch under way
   * from claiming it or bringing it back. `before` holds the card as this
   * update found it (one set meanwhile included), whose image the caller removes.
   */
  removePreview(doc: MessageDoc): Promise<BeforeAfter | null> {
    return this.#changeFromBefore({ _id: doc._id }, { $unset: { preview: '' }, $set: { previewUrl: '' } });
  }
}

/** The update with the message's version moved by one. */
function bumped(update: UpdateQuery<MessageDoc>): UpdateQuery<MessageDoc> {
  return { ...update, $inc: { ...(update.$inc as Record<string, number> | undefined), v: 1 } };
}
