import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface FileDoc {
  _id: Types.ObjectId;
  uploaderId: Types.ObjectId;
  /** Sanitized display name: never used to build a storage key. */
  name: string;
  size: number;
  /** Sniffed from the bytes, not taken from the client. */
  mime: string;
  sha256: string;
  key: string;
  thumbnailKey?: string;
  /** Converses where a message carries this file: their members may read it. */
  converseIds: Types.ObjectId[];
  /** Groups whose custom emoji this image is: their members may read it (absent on other files). */
  groupIds?: Types.ObjectId[];
  /** The user whose profile picture this is: anyone signed in may read it (absent on other files). */
  avatarOf?: Types.ObjectId;
  /** The group whose icon this is: anyone signed in may read it (absent on other files). */
  iconOf?: Types.ObjectId;
  /** The message whose link preview shows this image (the server fetched it): it goes with that preview. */
  previewOf?: Types.ObjectId;
  createdAt: Date;
}

const fileSchema = new Schema<FileDoc>(
  {
    uploaderId: { type: Schema.Types.ObjectId, required: true },
    name: { type: String, required: true },
    size: { type: Number, required: true },
    mime: { type: String, required: true },
    sha256: { type: String, required: true },
    key: { type: String, required: true },
    thumbnailKey: { type: String },
    converseIds: { type: [Schema.Types.ObjectId], default: [] },
    groupIds: { type: [Schema.Types.ObjectId], default: undefined },
    avatarOf: { type: Schema.Types.ObjectId },
    iconOf: { type: Schema.Types.ObjectId },
    previewOf: { type: Schema.Types.ObjectId },
    createdAt: { type: Date, required: true, default: () => new Date() },
  },
  { versionKey: false },
);
// Cleanup of files never attached (by age).
fileSchema.index({ createdAt: 1 });
fileSchema.index({ uploaderId: 1, createdAt: -1 });
// A group's icon, found when the group goes (few files have one).
fileSchema.index({ iconOf: 1 }, { partialFilterExpression: { iconOf: { $exists: true } } });

export type FileModel = Model<FileDoc>;

export const fileModel = (connection: Connection): FileModel => modelOn(connection, 'File', fileSchema);

/** A user's storage use in bytes: reserved atomically before a file is recorded, so uploads at once cannot pass the quota. */
export interface UsageDoc {
  /** The user's id. */
  _id: Types.ObjectId;
  used: number;
}

const usageSchema = new Schema<UsageDoc>({ used: { type: Number, required: true } }, { versionKey: false });

export type UsageModel = Model<UsageDoc>;

export const usageModel = (connection: Connection): UsageModel => modelOn(connection, 'FileUsage', usageSchema);
