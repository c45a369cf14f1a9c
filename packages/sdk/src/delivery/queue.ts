import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { answeredWithin } from '../db/redis-liveness.ts';
import { KeyedSlots } from './keyed-slots.ts';

/**
 * One piece of work waiting to be delivered: a push notification, a webhook
 * event. `data` is the caller's (JSON-serialisable in a cluster); the queue
 * adds an id and counts attempts.
 */
export interface DeliveryJob<T> {
  id: string;
  data: T;
  attempts: number;
  enqueuedAt: number;
}

/** What a worker decided about a job. */
export type Outcome = { done: true } | { retryInMs: number; countAttempt: boolean };
export type Worker<T> = (job: DeliveryJob<T>) => Promise<Outcome>;

/**
 * At most `max` jobs of one key (say, a destination host) in progress at
 * once; the others of that key wait parked, outside the delivery slots, in
 * arrival order. Jobs without a key are not bounded.
 */
export interface PerKeyLimit<T> {
  keyOf(data: T): string | undefined;
  max: number;
}

/**
 * Work waiting to be sent, shared by push and webhooks. In process memory on
 * a single instance (callers that must survive a restart keep their own
 * record and enqueue again at start, as webhooks do); a Redis stream in a
 * cluster (survives crashes: a job is acknowledged only after its outcome,
 * and jobs of a crashed consumer are claimed by another after a minute).
 */
export interface DeliveryQueue<T> {
  enqueue(jobs: T[]): Promise<void>;
  start(worker: Worker<T>, concurrency: number, perKey?: PerKeyLimit<T>): void;
  depth(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * A job as it waits: one flat object. Jobs waiting in memory get a counter
 * for an id; jobs in Redis a UUID, as ids there must differ across nodes (a
 * retried job's JSON is a sorted-set member).
 */
const newJob = <T>(data: T, id: string): DeliveryJob<T> => ({ id, data, attempts: 0, enqueuedAt: Date.now() });

/**
 * A job as stored. The push queue of earlier versions wrote its data flat
 * beside the queue's own fields (same stream): such a job, still waiting
 * during an upgrade, is read as if it had been written now.
 */
function readJob<T>(raw: string): DeliveryJob<T> {
  const job = JSON.parse(raw) as DeliveryJob<T> | (Omit<DeliveryJob<T>, 'data'> & Record<string, unknown>);
  if ('data' in job) return job as DeliveryJob<T>;
  const { id, attempts, enqueuedAt, ...data } = job;
  return { id, attempts, enqueuedAt, data: data as T };
}

export class MemoryQueue<T> implements DeliveryQueue<T> {
  /** Waiting jobs from #head on: taking one moves the index (Array#shift copies the array once it is large). */
  #ready: Array<DeliveryJob<T> | undefined> = [];
  #head = 0;
  #nextId = 0;
  readonly #timers = new Set<NodeJS.Timeout>();
  #worker: Worker<T> | undefined;
  #active = 0;
  #concurrency = 1;
  #delayed = 0;
  #perKey: { keyOf: PerKeyLimit<T>['keyOf']; slots: KeyedSlots<DeliveryJob<T>> } | undefined;
  /** Callers waiting for the backlog to fall below their mark (see whenBacklogBelow). */
  #roomWaiters: Array<{ mark: number; resolve: (running: boolean) => void }> = [];

  async enqueue(jobs: T[]): Promise<void> {
    for (const j of jobs) this.#ready.push(newJob(j, `m${(this.#nextId += 1)}`));
    this.#pump();
  }

  start(worker: Worker<T>, concurrency: number, perKey?: PerKeyLimit<T>): void {
    this.#worker = worker;
    this.#concurrency = concurrency;
    if (perKey) this.#perKey = { keyOf: perKey.keyOf, slots: new KeyedSlots(perKey.max) };
    this.#pump();
  }

  async depth(): Promise<number> {
    return this.#ready.length - this.#head + this.#delayed + this.#active + (this.#perKey?.slots.parked ?? 0);
  }

  /**
   * Jobs waiting to be sent now or being sent: the depth without retries
   * waiting for their time nor jobs parked behind others of their key (a
   * slow destination must not hold the work of everyone else).
   */
  backlog(): number {
    return this.#ready.length - this.#head + this.#active;
  }

  /**
   * Resolves with true once the backlog is below `mark` (at once if it is
   * now): checked each time a job is settled, so a waiter learns of room as
   * soon as there is some, without polling. Resolves with false if the queue
   * is not running (not started, or stopped): nothing will make room.
   */
  whenBacklogBelow(mark: number): Promise<boolean> {
    if (!this.#worker) return Promise.resolve(false);
    if (this.backlog() < mark) return Promise.resolve(true);
    return new Promise((resolve) => this.#roomWaiters.push({ mark, resolve }));
  }

  async stop(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    this.#worker = undefined;
    this.#perKey?.slots.clear();
    this.#wakeWaiters();
  }

  /** Lets through the waiters whose mark the backlog is now below (all of them, with false, once stopped). */
  #wakeWaiters(): void {
    const running = this.#worker !== undefined;
    const backlog = this.backlog();
    const waiting = this.#roomWaiters;
    this.#roomWaiters = [];
    for (const w of waiting) {
      if (!running || backlog < w.mark) w.resolve(running);
      else this.#roomWaiters.push(w);
    }
  }

  #pump(): void {
    while (this.#worker && this.#active < this.#concurrency && this.#head < this.#ready.length) {
      const job = this.#take();
      const key = this.#perKey?.keyOf(job.data);
      // A job of a full key waits parked; it runs when one of its key settles.
      if (this.#perKey && !this.#perKey.slots.admit(key, job)) continue;
      this.#run(this.#worker, job, key);
    }
  }

  #run(worker: Worker<T>, job: DeliveryJob<T>, key: string | undefined): void {
    this.#active += 1;
    void worker(job)
      .catch((): Outcome => ({ retryInMs: 1000, countAttempt: true }))
      .then((outcome) => {
        this.#active -= 1;
        if (!('done' in outcome))
          this.#later({ ...job, attempts: job.attempts + (outcome.countAttempt ? 1 : 0) }, outcome.retryInMs);
        const next = this.#perKey?.slots.release(key);
        if (next && this.#worker) this.#run(this.#worker, next, key);
        this.#pump();
        if (this.#roomWaiters.length > 0) this.#wakeWaiters();
      });
  }

  #take(): DeliveryJob<T> {
    const job = this.#ready[this.#head]!;
    this.#ready[this.#head] = undefined; // not kept alive by the queue once taken
    this.#head += 1;
    if (this.#head === this.#ready.length) {
      this.#ready = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#ready.length) {
      // Drop the taken half: amortized, each job is copied at most once more.
      this.#ready = this.#ready.slice(this.#head);
      this.#head = 0;
    }
    return job;
  }

  #later(job: DeliveryJob<T>, ms: number): void {
    this.#delayed += 1;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.#delayed -= 1;
      this.#ready.push(job);
      this.#pump();
    }, ms);
    this.#timers.add(timer);
  }
}

const CLAIM_IDLE_MS = 60_000;
/** A blocking read (BLOCK 1 s) still unanswered after this: its Redis went silent. */
const READ_SILENCE_MS = 6_000;
/** Jobs a stream consumer keeps parked behind others of their key, per delivery slot. */
const PARKED_PER_SLOT = 16;

export interface RedisStreamQueueOptions {
  /** Names the stream (`<name>:jobs`), its retries (`<name>:delayed`) and its consumer group: one per kind of work. */
  name: string;
  claimIdleMs?: number;
  claimEveryMs?: number;
}

export class RedisStreamQueue<T> implements DeliveryQueue<T> {
  readonly #redis: Redis;
  readonly #reader: Redis;
  readonly #consumer: string;
  #running = false;
  #active = 0;
  #perKey: { keyOf: PerKeyLimit<T>['keyOf']; slots: KeyedSlots<{ streamId: string; job: DeliveryJob<T> }> } | undefined;
  /** Outcomes of one event-loop turn, recorded together (see #record). */
  #outcomes: Array<{ streamId: string; retry?: [at: number, raw: string]; settle: (err?: unknown) => void }> = [];
  readonly #claimIdleMs: number;
  readonly #claimEveryMs: number;
  readonly #stream: string;
  readonly #delayed: string;
  readonly #group: string;

  constructor(redis: Redis, consumer: string, options: RedisStreamQueueOptions) {
    this.#stream = `${options.name}:jobs`;
    this.#delayed = `${options.name}:delayed`;
    this.#group = options.name;
    this.#claimIdleMs = options.claimIdleMs ?? CLAIM_IDLE_MS;
    this.#claimEveryMs = options.claimEveryMs ?? 5_000;
    this.#redis = redis;
    // XREADGROUP blocks its connection: it gets one of its own.
    this.#reader = redis.duplicate();
    this.#reader.on('error', () => undefined);
    this.#consumer = consumer;
  }

  async enqueue(jobs: T[]): Promise<void> {
    if (jobs.length === 0) return;
    const pipeline = this.#redis.pipeline();
    for (const job of jobs) pipeline.xadd(this.#stream, '*', 'job', JSON.stringify(newJob(job, randomUUID())));
    await pipeline.exec();
  }

  start(worker: Worker<T>, concurrency: number, perKey?: PerKeyLimit<T>): void {
    this.#running = true;
    if (perKey) this.#perKey = { keyOf: perKey.keyOf, slots: new KeyedSlots(perKey.max) };
    void this.#read(worker, concurrency);
    void this.#moveDue();
    void this.#claim(worker);
  }

  async depth(): Promise<number> {
    const [len, delayed] = await Promise.all([this.#redis.xlen(this.#stream), this.#redis.zcard(this.#delayed)]);
    return len + delayed;
  }

  async stop(): Promise<void> {
    // The loops see the flag at their next turn; jobs in progress finish or are claimed later.
    this.#running = false;
    // Parked jobs were read but not acknowledged: another consumer claims them.
    this.#perKey?.slots.clear();
    this.#reader.disconnect();
  }

  async #ensureGroup(): Promise<void> {
    // ioredis does not apply its keyPrefix to XGROUP's key (it follows a subcommand): spell it out.
    const key = `${this.#redis.options.keyPrefix ?? ''}${this.#stream}`;
    await this.#redis.xgroup('CREATE', key, this.#group, '0', 'MKSTREAM').catch((err: unknown) => {
      if (!String(err).includes('BUSYGROUP')) throw err;
    });
  }

  async #handle(worker: Worker<T>, streamId: string, job: DeliveryJob<T>): Promise<void> {
    let outcome: Outcome;
    try {
      outcome = await worker(job);
    } catch {
      outcome = { retryInMs: 1000, countAttempt: true };
    }
    await this.#record(
      streamId,
      'done' in outcome
        ? undefined
        : [
            Date.now() + outcome.retryInMs,
            JSON.stringify({ ...job, attempts: job.attempts + (outcome.countAttempt ? 1 : 0) }),
          ],
    );
  }

  /**
   * Records a job's outcome and acknowledges it, in one transaction with the other outcomes of
   * this event-loop turn (a round trip per job cost more than the rest of the bookkeeping). As
   * for a single job: acknowledged only together with its outcome, so a crash before replays it.
   */
  #record(streamId: string, retry: [at: number, raw: string] | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#outcomes.length === 0) setImmediate(() => void this.#flushOutcomes());
      this.#outcomes.push({ streamId, retry, settle: (err) => (err === undefined ? resolve() : reject(err)) });
    });
  }

  async #flushOutcomes(): Promise<void> {
    const batch = this.#outcomes;
    this.#outcomes = [];
    const tx = this.#redis.multi();
    for (const o of batch) if (o.retry) tx.zadd(this.#delayed, o.retry[0], o.retry[1]);
    const ids = batch.map((o) => o.streamId);
    tx.xack(this.#stream, this.#group, ...ids).xdel(this.#stream, ...ids);
    try {
      await tx.exec();
      for (const o of batch) o.settle();
    } catch (err) {
      for (const o of batch) o.settle(err ?? new Error(`${this.#group} queue: recording outcomes failed`));
    }
  }

  async #read(worker: Worker<T>, concurrency: number): Promise<void> {
    while (this.#running) {
      try {
        await this.#ensureGroup();
        break;
      } catch {
        await sleep(1000); // Redis unreachable: try again, without spinning.
      }
    }
    while (this.#running) {
      // Jobs parked behind others of their key stay pending here (claimed by another consumer if
      // this one dies); past a bound of them, reading waits as it does for delivery slots.
      const parkedFull = (this.#perKey?.slots.parked ?? 0) >= concurrency * PARKED_PER_SLOT;
      const room = parkedFull ? 0 : concurrency - this.#active;
      if (room <= 0) {
        await sleep(5);
        continue;
      }
      let res: Array<[string, Array<[string, string[]]>]> | null;
      try {
        // A read blocks for 1 s at most: no answer long after means the Redis host is gone silently.
        res = (await answeredWithin(
          this.#reader,
          this.#reader.xreadgroup(
            'GROUP',
            this.#group,
            this.#consumer,
            'COUNT',
            room,
            'BLOCK',
            1000,
            'STREAMS',
            this.#stream,
            '>',
          ),
          READ_SILENCE_MS,
        )) as typeof res;
      } catch {
        await sleep(500);
        continue;
      }
      for (const [, entries] of res ?? []) {
        for (const [id, fields] of entries) {
          const job = readJob<T>(fields[1]!);
          const key = this.#perKey?.keyOf(job.data);
          if (this.#perKey && !this.#perKey.slots.admit(key, { streamId: id, job })) continue;
          this.#run(worker, id, job, key);
        }
      }
    }
  }

  #run(worker: Worker<T>, streamId: string, job: DeliveryJob<T>, key: string | undefined): void {
    this.#active += 1;
    void this.#handle(worker, streamId, job)
      .catch(() => undefined) // Not acknowledged: another consumer claims it later.
      .finally(() => {
        this.#active -= 1;
        const next = this.#perKey?.slots.release(key);
        if (next && this.#running) this.#run(worker, next.streamId, next.job, key);
      });
  }

  /** Retries whose time has come go back into the stream (ZREM first: one mover wins). */
  async #moveDue(): Promise<void> {
    while (this.#running) {
      let moved = 0;
      try {
        for (const raw of await this.#redis.zrangebyscore(this.#delayed, 0, Date.now(), 'LIMIT', 0, 200)) {
          if ((await this.#redis.zrem(this.#delayed, raw)) === 1) {
            await this.#redis.xadd(this.#stream, '*', 'job', raw);
            moved += 1;
          }
        }
      } catch {
        // Redis unreachable: the jobs stay where they are until it is back.
      }
      await sleep(moved > 0 ? 10 : 250);
    }
  }

  /** Jobs read by a consumer that died before acknowledging them are taken over. */
  async #claim(worker: Worker<T>): Promise<void> {
    while (this.#running) {
      await sleep(this.#claimEveryMs);
      if (!this.#running) return;
      const res = (await this.#redis
        .xautoclaim(this.#stream, this.#group, this.#consumer, this.#claimIdleMs, '0-0', 'COUNT', 100)
        .catch(() => null)) as [string, Array<[string, string[]]>] | null;
      for (const [id, fields] of res?.[1] ?? [])
        if (fields?.[1]) await this.#handle(worker, id, readJob<T>(fields[1])).catch(() => undefined);
    }
  }
}

/** A pause that does not keep the process alive on its own. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
