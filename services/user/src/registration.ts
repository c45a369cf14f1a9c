import type { RegistrationMode } from '@im/protocol';
import { Types } from 'mongoose';
import type { SettingModel } from './models.ts';

const KEY = 'registration';
const MODES: readonly RegistrationMode[] = ['open', 'invite', 'closed'];

/**
 * Who may register. REGISTRATION is the default; a server admin's choice is
 * stored and wins from then on. Read from MongoDB at each use (registrations
 * are rare), so every user node of a cluster agrees at once.
 */
export class RegistrationPolicy {
  readonly #settings: SettingModel;
  readonly #fallback: RegistrationMode;

  constructor(settings: SettingModel, fallback: RegistrationMode) {
    this.#settings = settings;
    this.#fallback = fallback;
  }

  async mode(): Promise<RegistrationMode> {
    const doc = await this.#settings.findById(KEY).lean();
    const value = doc?.value;
    return MODES.includes(value as RegistrationMode) ? (value as RegistrationMode) : this.#fallback;
  }

  /** Stores the mode; answers the one before. */
  async set(mode: RegistrationMode, by: string): Promise<RegistrationMode> {
    const before = await this.mode();
    await this.#settings.updateOne(
      { _id: KEY },
      { $set: { value: mode, updatedAt: new Date(), updatedBy: new Types.ObjectId(by) } },
      { upsert: true },
    );
    return before;
  }
}
