import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/**
 * One export: a group's (asked by its owner or a server admin) or a
 * person's own. Runs in the background on the node that took the request;
 * `nodeId` says which, so that node, started again, marks what it left
 * running as failed (an export is cheap to ask for again; it is not resumed).
 */
export interface ExportJobDoc {
  _id: Types.ObjectId;
  kind: 'group' | 'personal';
  /** Who asked: the only one who sees the job and downloads the archive. */
  requestedBy: Types.ObjectId;
  /** The group exported (group exports). */
  groupId?: Types.ObjectId;
  status: 'running' | 'done' | 'failed';
  nodeId: string;
  /** The archive in object storage, once done. */
  storageKey?: string;
  size?: number;
  error?: { code: string; message: string };
  createdAt: Date;
  finishedAt?: Date;
}

const exportJobSchema = new Schema<ExportJobDoc>(
  {
    kind: { type: String, required: true, enum: ['group', 'personal'] },
    requestedBy: { type: Schema.Types.ObjectId, required: true },
    groupId: { type: Schema.Types.ObjectId },
    status: { type: String, required: true, enum: ['running', 'done', 'failed'] },
    nodeId: { type: String, required: true },
    storageKey: { type: String },
    size: { type: Number },
    error: { type: Schema.Types.Mixed, default: undefined },
    createdAt: { type: Date, required: true },
    finishedAt: { type: Date },
  },
  { versionKey: false, collection: 'exports' },
);
// A node starting again finds what it left running.
exportJobSchema.index({ status: 1, nodeId: 1 });

/** The export jobs' models (group and personal exports). */
export interface ExportModels {
  exports: Model<ExportJobDoc>;
}

export const exportModels = (connection: Connection): ExportModels => ({
  exports: modelOn(connection, 'ExportJob', exportJobSchema),
});
