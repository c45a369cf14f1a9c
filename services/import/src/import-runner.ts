import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { announce, EVENTS, type Logger, type ObjectStorage } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import type mongoose from 'mongoose';
import { announceImport } from './announce/announce-import.ts';
import { jobProgress } from './job-progress.ts';
import { toImportJob } from './job-view.ts';
import type { ImportJobDoc, ImportModels } from './models.ts';
import { openSource } from './sources/open-source.ts';
import { materializeUpload } from './upload-files.ts';
import { runImport, UnknownOwnerError } from './write/run-import.ts';

export interface ImportRunnerDeps {
  models: ImportModels;
  db: () => mongoose.mongo.Db;
  storage: ObjectStorage;
  /** The broker, once started: it tells the platform's services, and the admin's open apps of progress. */
  caller: () => ServiceBroker;
  logger: Logger;
}

/** A running job says it is alive at least this often; one silent for STALE_MS was on a node that stopped. */
const HEARTBEAT_MS = 10_000;
export const STALE_MS = 120_000;

/**
 * Runs the imports started from the app, one at a time on this node, in
 * the background: the upload is copied out of object storage, read, written
 * (see ../write/run-import.ts), and the running platform told at once.
 */
export class ImportRunner {
  #queue: Promise<void> = Promise.resolve();
  readonly #deps: ImportRunnerDeps;

  constructor(deps: ImportRunnerDeps) {
    this.#deps = deps;
  }

  enqueue(job: ImportJobDoc): void {
    this.#queue = this.#queue.then(() => this.#run(job)).catch(() => undefined);
  }

  async #run(job: ImportJobDoc): Promise<void> {
    const { models, storage, logger } = this.#deps;
    // Every change of the job reaches the open apps of whoever started it (the Import page), then the poll.
    const tell = async () => {
      const now = await models.imports.findById(job._id).lean<ImportJobDoc>();
      if (now && job.startedBy)
        announce(this.#deps.caller(), EVENTS.importProgress, {
          userId: job.startedBy.toHexString(),
          job: toImportJob(now),
        });
    };
    const set = async (fields: Partial<ImportJobDoc>) => {
      await models.imports.updateOne({ _id: job._id }, { $set: { ...fields, updatedAt: new Date() } });
      await tell();
    };
    const dir = await mkdtemp(join(tmpdir(), 'im-import-'));
    const heartbeat = setInterval(() => void set({}).catch(() => undefined), HEARTBEAT_MS);
    try {
      await set({ status: 'running', phase: 'reading' });
      const path = await materializeUpload(storage, job.storageKey!, job.kind, dir, job.fileName);
      const source = await openSource(job.kind, path);
      try {
        const owner = await this.#deps
          .db()
          .collection('users')
          .findOne({ _id: job.ownerId }, { projection: { username: 1 } });
        if (!owner) throw new UnknownOwnerError('the owner account is gone');
        const outcome = await runImport(this.#deps.db(), storage, source, {
          owner: String(owner.username),
          progress: jobProgress(models, job._id, undefined, () => void tell().catch(() => undefined)),
        });
        await set({
          groupIds: outcome.groupIds,
          dmConverseIds: outcome.dmConverseIds,
          summary: outcome.summary,
          skippedReasons: outcome.skippedReasons,
          messages: outcome.summary.messages,
          phase: 'finishing',
        });
        await announceImport(this.#deps.caller(), outcome);
        await set({ status: 'done', phase: 'done', announce: 'done', finishedAt: new Date() });
      } finally {
        await source.close();
      }
    } catch (err) {
      logger.warn({ err, importId: job._id.toHexString() }, 'import failed');
      await set({
        status: 'failed',
        error: {
          code: err instanceof UnknownOwnerError ? 'IM_ERR_VALIDATION' : 'IM_ERR_IMPORT_FAILED',
          message: (err as Error).message,
        },
        finishedAt: new Date(),
      }).catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
      await rm(dir, { recursive: true, force: true });
      await storage.remove(job.storageKey!).catch(() => undefined);
      await models.imports.updateOne({ _id: job._id }, { $unset: { storageKey: 1 } }).catch(() => undefined);
    }
  }
}

/** Jobs of the app left running by a node that stopped: failed, with what to do (a new run resumes them). */
export async function failStaleJobs(models: ImportModels): Promise<number> {
  const res = await models.imports.updateMany(
    { status: { $in: ['queued', 'running'] }, updatedAt: { $lt: new Date(Date.now() - STALE_MS) } },
    {
      $set: {
        status: 'failed',
        error: {
          code: 'IM_ERR_IMPORT_FAILED',
          message: 'The server stopped during this import; start it again: it continues where it stopped',
        },
        finishedAt: new Date(),
      },
    },
  );
  return res.modifiedCount;
}
