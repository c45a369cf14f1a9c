import type { StorageUsage } from '@im/protocol';
import { ImError, isDuplicateKeyError } from '@im/sdk';
import { Types } from 'mongoose';
import type { FileDoc, FileModel, UsageModel } from './models.ts';

export const quotaExceeded = (quota: number) =>
  new ImError('IM_ERR_QUOTA', `Your uploads may take at most ${quota} bytes; delete files or ask an operator`);

/**
 * Per-user storage use against FILE_QUOTA_BYTES. The figure is a counter
 * document per user, started from the user's files the first time it is
 * needed, then moved only by conditional increments.
 */
export class Quota {
  readonly #usage: UsageModel;
  readonly #files: FileModel;
  readonly quota: number;

  constructor(usage: UsageModel, files: FileModel, quota: number) {
    this.#usage = usage;
    this.#files = files;
    this.quota = quota;
  }

  async of(userId: string): Promise<StorageUsage> {
    return { used: await this.#used(new Types.ObjectId(userId)), quota: this.quota };
  }

  /** Counts `bytes` more for the user, or IM_ERR_QUOTA (nothing counted) when that would pass the quota. */
  async reserve(userId: Types.ObjectId, bytes: number): Promise<void> {
    if (bytes > this.quota) throw quotaExceeded(this.quota);
    await this.#used(userId);
    const { matchedCount } = await this.#usage.updateOne(
      { _id: userId, used: { $lte: this.quota - bytes } },
      { $inc: { used: bytes } },
    );
    if (matchedCount === 0) throw quotaExceeded(this.quota);
  }

  async release(userId: Types.ObjectId, bytes: number): Promise<void> {
    await this.#usage.updateOne({ _id: userId }, { $inc: { used: -bytes } });
  }

  /** The current figure, made from the user's files when there is none yet. */
  async #used(userId: Types.ObjectId): Promise<number> {
    const doc = await this.#usage.findById(userId).lean<{ used: number }>();
    if (doc) return doc.used;
    const files = await this.#files.find({ uploaderId: userId }, { size: 1 }).lean<Array<Pick<FileDoc, 'size'>>>();
    const used = files.reduce((sum, f) => sum + f.size, 0);
    try {
      await this.#usage.collection.insertOne({ _id: userId, used });
      return used;
    } catch (err) {
      // Made meanwhile by another request: that one counts.
      if (!isDuplicateKeyError(err)) throw err;
      return (await this.#usage.findById(userId).lean<{ used: number }>())?.used ?? used;
    }
  }
}
