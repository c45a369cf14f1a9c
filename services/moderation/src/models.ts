import type { Report } from '@im/protocol';
import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/** A member's report of a message, with the message as it was then (it may change or go later). */
export interface ReportDoc {
  _id: Types.ObjectId;
  messageId: Types.ObjectId;
  converseId: Types.ObjectId;
  /** Absent for a DM's message: server admins handle those. */
  groupId?: Types.ObjectId;
  reporterId: Types.ObjectId;
  reason: string;
  createdAt: Date;
  status: Report['status'];
  message: { authorId: Types.ObjectId; content: string; seq: number; createdAt: Date };
  resolvedBy?: Types.ObjectId;
  resolvedAt?: Date;
}

const snapshotSchema = new Schema<ReportDoc['message']>(
  {
    authorId: { type: Schema.Types.ObjectId, required: true },
    content: { type: String, default: '' },
    seq: { type: Number, required: true },
    createdAt: { type: Date, required: true },
  },
  { _id: false },
);

const reportSchema = new Schema<ReportDoc>(
  {
    messageId: { type: Schema.Types.ObjectId, required: true },
    converseId: { type: Schema.Types.ObjectId, required: true },
    groupId: { type: Schema.Types.ObjectId },
    reporterId: { type: Schema.Types.ObjectId, required: true },
    reason: { type: String, required: true },
    createdAt: { type: Date, required: true },
    status: { type: String, required: true, enum: ['open', 'dismissed', 'deleted'] },
    message: { type: snapshotSchema, required: true },
    resolvedBy: { type: Schema.Types.ObjectId },
    resolvedAt: { type: Date },
  },
  { versionKey: false },
);
// One report per member per message; a group's queue and the server's, newest first.
reportSchema.index({ messageId: 1, reporterId: 1 }, { unique: true });
reportSchema.index({ groupId: 1, status: 1, _id: -1 });
reportSchema.index({ status: 1, _id: -1 });

export type ReportModel = Model<ReportDoc>;

export const reportModel = (connection: Connection): ReportModel => modelOn(connection, 'Report', reportSchema);
