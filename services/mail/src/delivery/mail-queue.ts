import { MemoryQueue, RedisStreamQueue, type DeliveryQueue, type Worker } from '@im/sdk';
import type { Redis } from 'ioredis';
import { Types } from 'mongoose';
import type { MailModels, OutboxDoc } from '../models.ts';
import type { MailJob, MailJobData } from './mail-job.ts';

/**
 * The platform's delivery queue for e-mails. In a cluster, the Redis stream
 * (it survives crashes itself). On a single instance the queue is in memory,
 * so each e-mail is also written to the outbox collection first, removed once
 * it is sent or given up, and queued again when the process starts.
 */
export class MailQueue {
  readonly #queue: DeliveryQueue<MailJobData>;
  readonly #outbox: MailModels['outbox'] | undefined;

  constructor(models: MailModels, redis: Redis | undefined, consumer: string) {
    if (redis) {
      this.#queue = new RedisStreamQueue<MailJobData>(redis, consumer, { name: 'mail' });
    } else {
      this.#queue = new MemoryQueue<MailJobData>();
      this.#outbox = models.outbox;
    }
  }

  /** Starts sending; on a single instance, first queues what the outbox kept from before. */
  async start(worker: Worker<MailJobData>, concurrency: number): Promise<void> {
    if (this.#outbox) {
      const waiting = await this.#outbox.find().sort({ _id: 1 }).lean<OutboxDoc[]>();
      await this.#queue.enqueue(
        waiting.map((d) => ({ ...(JSON.parse(d.mail) as MailJobData), outboxId: d._id.toHexString() })),
      );
    }
    this.#queue.start(worker, concurrency);
  }

  async enqueue(mails: MailJobData[]): Promise<void> {
    if (mails.length === 0) return;
    if (!this.#outbox) return this.#queue.enqueue(mails);
    const createdAt = new Date();
    const docs = mails.map((mail) => ({ _id: new Types.ObjectId(), mail: JSON.stringify(mail), createdAt }));
    await this.#outbox.insertMany(docs, { lean: true });
    await this.#queue.enqueue(mails.map((m, i) => ({ ...m, outboxId: docs[i]!._id.toHexString() })));
  }

  /** A job is over (sent or given up): its outbox entry goes. */
  async settled(job: MailJob): Promise<void> {
    if (this.#outbox && job.data.outboxId) await this.#outbox.deleteOne({ _id: job.data.outboxId });
  }

  depth(): Promise<number> {
    return this.#queue.depth();
  }

  stop(): Promise<void> {
    return this.#queue.stop();
  }
}
