import { Worker } from 'node:worker_threads';
import { encryptWebPush, InvalidSubscriptionKeys } from './encrypt.ts';
import type { EncryptBatch, EncryptItem, EncryptResult } from './encrypt-protocol.ts';

/** Web Push encryption, inline or on worker threads. */
export interface Encryptor {
  /** The aes128gcm body for a subscription; rejects with InvalidSubscriptionKeys when its keys cannot be used. */
  encrypt(p256dh: string, auth: string, payload: string): Promise<Buffer>;
  close(): Promise<void>;
}

/** On the event loop itself (PUSH_ENCRYPT_WORKERS=0). */
const inline: Encryptor = {
  encrypt: async (p256dh, auth, payload) => encryptWebPush(p256dh, auth, Buffer.from(payload)),
  close: async () => undefined,
};

export const createEncryptor = (workers: number): Encryptor => (workers > 0 ? new EncryptPool(workers) : inline);

const WORKER_FILE = new URL('./encrypt-worker.ts', import.meta.url);
/** A worker that died is replaced after this long (no tight loop if it dies at start). */
const RESPAWN_MS = 1000;

interface Waiter {
  resolve(body: Buffer): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker | undefined;
  /** Items sent and not answered yet. */
  outstanding: number;
  /** Items of this event-loop turn, sent together at its end. */
  items: EncryptItem[];
  waiters: Waiter[];
  sent: Map<number, Waiter[]>;
}

/**
 * Spreads encryption (a P-256 key pair and an ECDH per notification, the
 * bulk of a Web Push delivery's CPU) over worker threads. Requests are
 * batched per event-loop turn and per worker (one message each way instead of
 * one per notification), and each goes to the worker with the fewest items
 * waiting. A worker that dies fails its waiting requests (the delivery queue
 * retries them) and is replaced; with no worker alive, encryption runs inline.
 */
export class EncryptPool implements Encryptor {
  readonly #slots: Slot[];
  #nextBatch = 0;
  #flushing = false;
  #closed = false;

  constructor(size: number) {
    this.#slots = Array.from({ length: size }, () => {
      const slot: Slot = { worker: undefined, outstanding: 0, items: [], waiters: [], sent: new Map() };
      this.#spawn(slot);
      return slot;
    });
  }

  encrypt(p256dh: string, auth: string, payload: string): Promise<Buffer> {
    if (this.#closed) return Promise.reject(new Error('the encryption pool is closed'));
    let best: Slot | undefined;
    for (const s of this.#slots)
      if (s.worker && (!best || s.outstanding + s.items.length < best.outstanding + best.items.length)) best = s;
    if (!best) return inline.encrypt(p256dh, auth, payload);
    const slot = best;
    return new Promise((resolve, reject) => {
      slot.items.push({ p256dh, auth, payload });
      slot.waiters.push({ resolve, reject });
      if (!this.#flushing) {
        this.#flushing = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const stopping = this.#slots.map((s) => s.worker?.terminate());
    for (const s of this.#slots) this.#fail(s, new Error('the encryption pool is closed'));
    await Promise.all(stopping);
  }

  #flush(): void {
    this.#flushing = false;
    for (const slot of this.#slots) {
      if (slot.items.length === 0) continue;
      const batch: EncryptBatch = { id: (this.#nextBatch += 1), items: slot.items };
      slot.sent.set(batch.id, slot.waiters);
      slot.outstanding += slot.items.length;
      slot.items = [];
      slot.waiters = [];
      slot.worker!.postMessage(batch);
    }
  }

  #spawn(slot: Slot): void {
    if (this.#closed) return;
    const worker = new Worker(WORKER_FILE);
    // The pool never keeps the process alive on its own; close() ends the workers.
    worker.unref();
    slot.worker = worker;
    worker.on('message', (result: EncryptResult) => this.#answer(slot, result));
    worker.on('error', () => undefined); // 'exit' follows and does the work
    worker.once('exit', () => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      this.#fail(slot, new Error('an encryption worker stopped'));
      if (!this.#closed) setTimeout(() => this.#spawn(slot), RESPAWN_MS).unref();
    });
  }

  #answer(slot: Slot, { id, bodies, ends, errors }: EncryptResult): void {
    const waiters = slot.sent.get(id);
    if (!waiters) return;
    slot.sent.delete(id);
    slot.outstanding -= waiters.length;
    let start = 0;
    waiters.forEach((w, i) => {
      const error = errors[i];
      if (error) w.reject(error.invalid ? new InvalidSubscriptionKeys(error.message) : new Error(error.message));
      else w.resolve(Buffer.from(bodies, start, ends[i]! - start));
      start = ends[i]!;
    });
  }

  /** Fails everything a slot has sent or is about to send. */
  #fail(slot: Slot, err: Error): void {
    for (const waiters of slot.sent.values()) for (const w of waiters) w.reject(err);
    for (const w of slot.waiters) w.reject(err);
    slot.sent.clear();
    slot.outstanding = 0;
    slot.items = [];
    slot.waiters = [];
  }
}
