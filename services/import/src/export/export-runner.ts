import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger, ObjectStorage } from '@im/sdk';
import type { Connection, mongo } from 'mongoose';
import type { ArchiveManifest } from '../archive/format.ts';
import type { ExportJobDoc, ExportModels } from '../export-models.ts';
import { serverName } from './archive-parts.ts';
import { ArchiveZip } from './archive-zip.ts';
import { writeGroupArchive } from './group-archive.ts';
import { writePersonalArchive } from './personal-archive.ts';

/** Storage keys are plain (letters, digits, `/`): the archive is `exports/<id>`, its zip-ness is in the download's headers. */
/** How often a node touches the jobs it holds. */
const HEARTBEAT_MS = 20_000;
/** A job untouched this long has lost its node. */
export const EXPORT_STALE_MS = 120_000;

export const exportStorageKey = (exportId: string) => `exports/${exportId}`;

export interface ExportRunnerDeps {
  connection: Connection;
  storage: ObjectStorage;
  models: ExportModels;
  logger: Logger;
  publicUrl: string | undefined;
}

/**
 * Runs export jobs in the background, one at a time on this node (an export
 * reads a whole group: two at once would only compete for the database). The
 * zip is written to a temporary file, then streamed into storage under
 * `exports/<id>.zip`; the job says done or failed.
 */
export class ExportRunner {
  readonly #deps: ExportRunnerDeps;
  #queue: Promise<void> = Promise.resolve();
  /** Jobs queued or running here: kept fresh so no sweep takes them for lost. */
  readonly #held = new Set<string>();
  #heartbeat: NodeJS.Timeout | undefined;

  constructor(deps: ExportRunnerDeps) {
    this.#deps = deps;
  }

  /** Queues the job; answers at once. */
  start(job: ExportJobDoc): void {
    this.#hold(job._id.toHexString());
    this.#queue = this.#queue.then(() => this.#run(job)).finally(() => this.#release(job._id.toHexString()));
  }

  #hold(id: string): void {
    this.#held.add(id);
    this.#heartbeat ??= setInterval(() => {
      const ids = [...this.#held];
      void this.#deps.models.exports
        .updateMany({ _id: { $in: ids }, status: 'running' }, { $set: { updatedAt: new Date() } })
        .catch(() => undefined);
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  #release(id: string): void {
    this.#held.delete(id);
    if (this.#held.size === 0 && this.#heartbeat) {
      clearInterval(this.#heartbeat);
      this.#heartbeat = undefined;
    }
  }

  /** Waits for the queued jobs (a stopping service lets them end). */
  idle(): Promise<void> {
    return this.#queue;
  }

  async #run(job: ExportJobDoc): Promise<void> {
    const { connection, storage, models, logger } = this.#deps;
    const id = job._id.toHexString();
    const scratch = await mkdtemp(join(tmpdir(), 'im-export-'));
    const file = join(scratch, 'archive.zip');
    try {
      const zip = new ArchiveZip(file);
      const db = connection.db as mongo.Db;
      const server = serverName(this.#deps.publicUrl, hostname());
      let manifest: ArchiveManifest | null;
      try {
        manifest =
          job.kind === 'group'
            ? await writeGroupArchive(db, storage, zip, job.groupId!, server)
            : await writePersonalArchive(db, storage, zip, job.requestedBy, server);
      } catch (err) {
        await zip.abort();
        throw err;
      }
      await zip.finish();
      if (!manifest) {
        await this.#fail(job, 'IM_ERR_NOT_FOUND', 'The group was deleted before its export was written');
        return;
      }
      const { size } = await stat(file);
      const key = exportStorageKey(id);
      await storage.put(key, createReadStream(file), 'application/zip');
      await models.exports.updateOne(
        { _id: job._id },
        { $set: { status: 'done', storageKey: key, size, finishedAt: new Date(), updatedAt: new Date() } },
      );
      logger.info({ exportId: id, kind: job.kind, size, messages: manifest.counts.messages }, 'export written');
    } catch (err) {
      logger.error({ err, exportId: id }, 'export failed');
      await this.#fail(job, 'IM_ERR_INTERNAL', 'The export could not be written').catch(() => undefined);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  async #fail(job: ExportJobDoc, code: string, message: string): Promise<void> {
    await this.#deps.models.exports.updateOne(
      { _id: job._id },
      { $set: { status: 'failed', error: { code, message }, finishedAt: new Date(), updatedAt: new Date() } },
    );
  }
}

const interrupted = () => ({
  status: 'failed' as const,
  error: { code: 'IM_ERR_SERVICE_UNAVAILABLE', message: 'The server stopped while writing the export; ask again' },
  finishedAt: new Date(),
});

/** Jobs this node (the same NODE_ID) left running when it stopped: they will not finish, so they say failed. */
export async function failInterruptedExports(models: ExportModels, nodeId: string): Promise<number> {
  const { modifiedCount } = await models.exports.updateMany({ status: 'running', nodeId }, { $set: interrupted() });
  return modifiedCount;
}

/** Jobs whose node stopped touching them (it stopped, under whatever id): failed, so their askers can ask again. */
export async function failStaleExports(models: ExportModels, now = Date.now()): Promise<number> {
  const { modifiedCount } = await models.exports.updateMany(
    { status: 'running', updatedAt: { $lt: new Date(now - EXPORT_STALE_MS) } },
    { $set: interrupted() },
  );
  return modifiedCount;
}
