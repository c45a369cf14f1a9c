import type { AppContext } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import type { UserDoc, UserModel } from '../models.ts';
import { announceStatus } from './announce-status.ts';
import { nextChangeAt } from './user-status.ts';

/** How often each user node looks for statuses due to change (an `until` passing, a schedule's hours starting). */
const SWEEP_EVERY_MS = 1_000;
/** Most users one sweep takes on; the rest wait for the next. */
const SWEEP_BATCH = 200;

/**
 * Acts on the stored deadlines of statuses (`statusCheckAt`): every user
 * node sweeps for those due, and takes each by moving its deadline on in one
 * conditional write, so exactly one node in the cluster announces each
 * change, and a deadline that passed while no node ran is acted on at start.
 */
export class StatusDeadlines {
  readonly #app: AppContext;
  readonly #users: UserModel;
  readonly #broker: ServiceBroker;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(app: AppContext, users: UserModel, broker: ServiceBroker) {
    this.#app = app;
    this.#users = users;
    this.#broker = broker;
  }

  start(): void {
    this.#timer = setInterval(() => {
      // A sweep still running (a slow database) is not doubled.
      this.#running ??= this.sweep()
        .then(() => undefined)
        .catch((err: unknown) => this.#app.logger.warn({ err }, 'could not act on status deadlines'))
        .finally(() => (this.#running = undefined));
    }, SWEEP_EVERY_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  /** Announces the statuses whose deadline passed; answers how many this node took. */
  async sweep(): Promise<number> {
    const now = Date.now();
    const due = await this.#users
      .find({ statusCheckAt: { $lte: new Date(now) } }, { _id: 1, statusCheckAt: 1, presenceStatus: 1 })
      .sort({ statusCheckAt: 1 })
      .limit(SWEEP_BATCH)
      .lean<UserDoc[]>();
    let taken = 0;
    for (const doc of due) {
      const next = nextChangeAt(doc.presenceStatus, now);
      const claimed = await this.#users.updateOne(
        { _id: doc._id, statusCheckAt: doc.statusCheckAt },
        next ? { $set: { statusCheckAt: next } } : { $unset: { statusCheckAt: 1 } },
      );
      // Another node took it first, or a change of the user's own moved it.
      if (claimed.modifiedCount !== 1) continue;
      taken += 1;
      await announceStatus(this.#app, this.#broker, doc._id.toHexString(), doc.presenceStatus, now);
    }
    return taken;
  }
}
