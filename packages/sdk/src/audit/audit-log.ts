import type { AuditAction, AuditEntry, AuditPage, AuditTarget } from '@im/protocol';
import { Schema, Types, type Connection, type Model } from 'mongoose';
import { modelOn } from '../db/mongo.ts';

/** What an action that made a moderation or administration change records; the actor is given apart. */
export interface AuditRecord {
  action: AuditAction;
  target: AuditTarget;
  groupId?: string;
  details?: Record<string, unknown>;
}

interface AuditDoc {
  _id: Types.ObjectId;
  at: Date;
  actorId: Types.ObjectId;
  action: AuditAction;
  target: AuditTarget;
  groupId?: Types.ObjectId;
  details: Record<string, unknown>;
}

const targetSchema = new Schema<AuditDoc['target']>(
  { type: { type: String, required: true }, id: { type: String, required: true } },
  { _id: false },
);

const auditSchema = new Schema<AuditDoc>(
  {
    at: { type: Date, required: true },
    actorId: { type: Schema.Types.ObjectId, required: true },
    action: { type: String, required: true },
    target: { type: targetSchema, required: true },
    groupId: { type: Schema.Types.ObjectId },
    details: { type: Object, default: {} },
  },
  { versionKey: false, collection: 'audit', minimize: false },
);
// Newest first by _id (ids grow with time): the whole log, and one group's.
auditSchema.index({ groupId: 1, _id: -1 });

const auditModel = (connection: Connection): Model<AuditDoc> => modelOn(connection, 'AuditEntry', auditSchema);

const toAuditEntry = (d: AuditDoc): AuditEntry => ({
  id: d._id.toHexString(),
  at: d.at.toISOString(),
  actorId: d.actorId.toHexString(),
  action: d.action,
  target: d.target,
  ...(d.groupId ? { groupId: d.groupId.toHexString() } : {}),
  details: d.details ?? {},
});

/**
 * The moderation audit log. Every service whose action makes a moderation
 * or administration change records it here itself, right after its write
 * succeeded: one insert into the shared `audit` collection, no call to
 * another service that could be down at that moment. The moderation service
 * pages through it.
 */
export class AuditLog {
  readonly #model: Model<AuditDoc>;

  constructor(connection: Connection) {
    this.#model = auditModel(connection);
  }

  async record(actorId: string, entry: AuditRecord): Promise<void> {
    await this.#model.collection.insertOne({
      _id: new Types.ObjectId(),
      at: new Date(),
      actorId: new Types.ObjectId(actorId),
      action: entry.action,
      target: entry.target,
      ...(entry.groupId ? { groupId: new Types.ObjectId(entry.groupId) } : {}),
      details: entry.details ?? {},
    });
  }

  /** Entries matching `filter` (all of them, or one group's), newest first, after `cursor` (an entry id). */
  async page(filter: { groupId?: string }, cursor: string | undefined, limit: number): Promise<AuditPage> {
    const docs = await this.#model
      .find({ ...filter, ...(cursor ? { _id: { $lt: cursor } } : {}) })
      .sort({ _id: -1 })
      .limit(limit + 1)
      .lean<AuditDoc[]>();
    const items = docs.slice(0, limit);
    return {
      items: items.map(toAuditEntry),
      nextCursor: docs.length > limit ? items.at(-1)!._id.toHexString() : null,
    };
  }

  createIndexes(): Promise<void> {
    return this.#model.createIndexes();
  }
}
