import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/** One user blocking another: no DMs between them, and the blocker is not notified of the other's messages. */
export interface BlockDoc {
  _id: Types.ObjectId;
  blockerId: Types.ObjectId;
  blockedId: Types.ObjectId;
  createdAt: Date;
}

const blockSchema = new Schema<BlockDoc>(
  {
    blockerId: { type: Schema.Types.ObjectId, required: true },
    blockedId: { type: Schema.Types.ObjectId, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// One block per pair; the list of mine reads it in order.
blockSchema.index({ blockerId: 1, blockedId: 1 }, { unique: true });
// "Who among these blocked the author": notifications ask by the blocked user.
blockSchema.index({ blockedId: 1, blockerId: 1 });

export type BlockModel = Model<BlockDoc>;

export const blockModel = (connection: Connection): BlockModel => modelOn(connection, 'Block', blockSchema);
