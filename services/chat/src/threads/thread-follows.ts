import { Schema, type Types } from 'mongoose';

/**
 * Who follows a thread: its root's author, everyone who replied, and those
 * mentioned in a reply. One document per (user, thread), written only for a
 * reply's participants (never for every member of the converse), so a big
 * group costs nothing more than a small one.
 */
export interface ThreadFollowDoc {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  rootId: Types.ObjectId;
  converseId: Types.ObjectId;
  /** The last reply seq the user has read in this thread (the root's seq until then). */
  readSeq: number;
  /** The thread's latest reply ($max: replies land in any order): the listing's order. */
  lastReplyAt: Date;
}

export const threadFollowSchema = new Schema<ThreadFollowDoc>(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    rootId: { type: Schema.Types.ObjectId, required: true },
    converseId: { type: Schema.Types.ObjectId, required: true },
    readSeq: { type: Number, required: true },
    lastReplyAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// One follow per user and thread; the upserts rely on it.
threadFollowSchema.index({ userId: 1, rootId: 1 }, { unique: true });
// "My threads", newest activity first, paged by (lastReplyAt, _id).
threadFollowSchema.index({ userId: 1, lastReplyAt: -1, _id: -1 });
// A reply moves every follower's lastReplyAt.
threadFollowSchema.index({ rootId: 1 });
