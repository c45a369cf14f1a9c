import type { ActionCaller, Logger } from '@im/sdk';
import type { ImportJobDoc, ImportModels } from '../models.ts';
import { announceImport } from './announce-import.ts';

/** A claim older than this was a node that stopped half-way: another takes it over. */
const CLAIM_LEASE_MS = 60_000;

/**
 * Command-line imports write while the platform may be running, in another
 * process. When one finishes it marks its job `announce: 'pending'`; every
 * import node looks for such jobs every IMPORT_ANNOUNCE_POLL_MS, claims one
 * (a lease, so exactly one node announces it, and a node that dies lets go)
 * and announces it. An empty look is one indexed query.
 */
export class AnnouncePoller {
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  readonly #models: ImportModels;
  readonly #caller: ActionCaller;
  readonly #logger: Logger;
  readonly #everyMs: number;

  constructor(models: ImportModels, caller: ActionCaller, logger: Logger, everyMs: number) {
    this.#models = models;
    this.#caller = caller;
    this.#logger = logger;
    this.#everyMs = everyMs;
  }

  start(): void {
    this.#timer = setInterval(() => void this.runOnce(), this.#everyMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** Announces every waiting job; answers how many. */
  async runOnce(): Promise<number> {
    if (this.#running) return 0;
    this.#running = true;
    let count = 0;
    try {
      for (;;) {
        const now = new Date();
        const job = await this.#models.imports
          .findOneAndUpdate(
            {
              $or: [
                { announce: 'pending' },
                { announce: 'claimed', announceClaimedAt: { $lt: new Date(now.getTime() - CLAIM_LEASE_MS) } },
              ],
            },
            { $set: { announce: 'claimed', announceClaimedAt: now } },
            { new: true },
          )
          .lean<ImportJobDoc>();
        if (!job) return count;
        await announceImport(this.#caller, job);
        await this.#models.imports.updateOne({ _id: job._id, announceClaimedAt: now }, { $set: { announce: 'done' } });
        count++;
      }
    } catch (err) {
      this.#logger.warn({ err }, 'imports: telling the platform of a finished import failed; trying again');
      return count;
    } finally {
      this.#running = false;
    }
  }
}
