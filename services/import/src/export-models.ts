import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/**
 * One export: a group's (asked by its owner or a server admin) or a
 * person's own. Runs in the background on the node that took the request,
 * which touches `updatedAt` while the job waits or runs: a job whose node
 * stopped goes stale and is marked failed (an export is cheap to ask for
 * again; it is not resumed). `nodeId` lets a node started again under the
 * same NODE_ID fail its own at once.
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
  /** Touched while queued or running on its node. */
  updatedAt: Date;
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
    updatedAt: { type: Date, required: true },
    finishedAt: { type: Date },
  },
  { versionKey: false, collection: 'exports' },
);
// A node starting again finds what it left running; the sweep finds stale jobs.
exportJobSchema.index({ status: 1, nodeId: 1 });
exportJobSchema.index({ status: 1, updatedAt: 1 });

/** The export jobs' models (group and personal exports). */
export interface ExportModels {
  exports: Model<ExportJobDoc>;
}

export const exportModels = (connection: Connection): ExportModels => ({
  exports: modelOn(connection, 'ExportJob', exportJobSchema),
});
