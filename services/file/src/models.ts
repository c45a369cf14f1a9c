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
    createdAt: { type: Date, required: true, default: () => new Date() },
  },
  { versionKey: false },
);
// Cleanup of files never attached (by age).
fileSchema.index({ createdAt: 1 });
fileSchema.index({ uploaderId: 1, createdAt: -1 });

export type FileModel = Model<FileDoc>;

export const fileModel = (connection: Connection): FileModel => modelOn(connection, 'File', fileSchema);
