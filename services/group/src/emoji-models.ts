import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/** A group's own emoji: `:name:` in its converses, drawn with a stored image. */
export interface EmojiDoc {
  _id: Types.ObjectId;
  groupId: Types.ObjectId;
  name: string;
  fileId: Types.ObjectId;
  createdBy: Types.ObjectId;
  createdAt: Date;
}

const emojiSchema = new Schema<EmojiDoc>(
  {
    groupId: { type: Schema.Types.ObjectId, required: true },
    name: { type: String, required: true },
    fileId: { type: Schema.Types.ObjectId, required: true },
    createdBy: { type: Schema.Types.ObjectId, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// One emoji per name in a group: the index settles racing uploads of the same name.
emojiSchema.index({ groupId: 1, name: 1 }, { unique: true });

export type EmojiModel = Model<EmojiDoc>;

export const emojiModel = (connection: Connection): EmojiModel => modelOn(connection, 'GroupEmoji', emojiSchema);
