import type { ImportKind, ImportStatus, ImportSummary } from '@im/protocol';
import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/**
 * One import, from the app or the command line. Written as it goes, so the
 * Import page can show progress and a run that stopped can be seen (and run
 * again, which resumes: every document an import writes has an id derived
 * from the export, so what is there already is skipped).
 */
export interface ImportJobDoc {
  _id: Types.ObjectId;
  kind: ImportKind;
  fileName: string;
  /** The account the groups are made for. */
  ownerId: Types.ObjectId;
  /** The server admin who started it from the app (absent: the command line). */
  startedBy?: Types.ObjectId;
  /** The uploaded export in object storage, until the job is over (app imports only). */
  storageKey?: string;
  status: ImportStatus;
  phase: string;
  messages: number;
  total?: number;
  summary?: ImportSummary;
  skippedReasons?: Record<string, number>;
  groupIds: Types.ObjectId[];
  /** DM converses it wrote into (the running platform adds them to their people's DM lists). */
  dmConverseIds: Types.ObjectId[];
  /**
   * `pending` once a command-line import is done: whichever import node sees
   * it first tells the running platform (caches, room index, open apps) and
   * sets `done`.
   */
  announce?: 'pending' | 'claimed' | 'done';
  announceClaimedAt?: Date;
  error?: { code: string; message: string };
  startedAt: Date;
  finishedAt?: Date;
  updatedAt: Date;
}

const importJobSchema = new Schema<ImportJobDoc>(
  {
    kind: { type: String, required: true },
    fileName: { type: String, required: true },
    ownerId: { type: Schema.Types.ObjectId, required: true },
    startedBy: { type: Schema.Types.ObjectId },
    storageKey: { type: String },
    status: { type: String, required: true },
    phase: { type: String, required: true },
    messages: { type: Number, required: true, default: 0 },
    total: { type: Number },
    summary: { type: Schema.Types.Mixed, default: undefined },
    skippedReasons: { type: Schema.Types.Mixed, default: undefined },
    groupIds: { type: [Schema.Types.ObjectId], default: [] },
    dmConverseIds: { type: [Schema.Types.ObjectId], default: [] },
    announce: { type: String },
    announceClaimedAt: { type: Date },
    error: { type: Schema.Types.Mixed, default: undefined },
    startedAt: { type: Date, required: true },
    finishedAt: { type: Date },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'imports' },
);
// The announcements waiting (sparse: only finished command-line imports carry one).
importJobSchema.index({ announce: 1 }, { sparse: true });

export interface ImportModels {
  imports: Model<ImportJobDoc>;
}

export const importModels = (connection: Connection): ImportModels => ({
  imports: modelOn(connection, 'ImportJob', importJobSchema),
});
