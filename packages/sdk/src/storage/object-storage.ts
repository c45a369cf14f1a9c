import type { Readable, Writable } from 'node:stream';

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/**
 * Where file bytes live. The rest of the code does not know which backend it
 * has: local disk (single instance) or S3/MinIO (cluster).
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /** Streams `body` to `key`; the object exists only once the whole stream is stored. */
  put(key: string, body: Readable, contentType: string, options?: PutOptions): Promise<void>;
  get(key: string, range?: ByteRange): Promise<ObjectStream>;
  /** Size in bytes, or null when there is no such object. */
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
  /** Throws when the backend does not answer (readiness). */
  ping(): Promise<void>;
}

export interface PutOptions {
  /**
   * Called with each chunk of the body once the storage is done with its bytes (written
   * out or copied), after which it never touches that chunk again: a caller that owns
   * the chunks may then free or reuse their memory. A chunk given to a write that failed
   * may never be released.
   */
  release?: (chunk: Buffer) => void;
}

/** An object's bytes. A backend may also offer to write them out itself, more cheaply than a pipe. */
export type ObjectStream = Readable & {
  /**
   * Writes the bytes to `out` and ends it, through a few buffers used again and again
   * (a pipe makes a new one per read, which the garbage collector then has to find).
   * Call it instead of reading the stream, never after.
   */
  sendTo?: (out: Writable) => Promise<void>;
};

/** The backend could not be reached: a 503 for the client, not a 500. */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
}

/**
 * A stream that bytes are sent to by hand (sendTo), watched for failing or closing
 * before it has everything: each wait below rejects then instead of hanging.
 */
export class Destination {
  readonly #out: Writable;
  readonly #broken: Promise<never>;
  #fail!: (err: unknown) => void;
  readonly #onClose = () => this.#fail(new Error('the destination closed before taking every byte'));

  constructor(out: Writable) {
    this.#out = out;
    this.#broken = new Promise<never>((_resolve, reject) => {
      this.#fail = reject;
    });
    this.#broken.catch(() => undefined);
    out.on('error', this.#fail);
    out.on('close', this.#onClose);
  }

  /** Writes `chunk` and resolves once `out` has taken it: its memory may then be used again. */
  taken(chunk: Buffer): Promise<void> {
    const taken = Promise.race([
      new Promise<void>((resolve, reject) => {
        this.#out.write(chunk, (err) => (err ? reject(err) : resolve()));
      }),
      this.#broken,
    ]);
    // Often awaited a little later: handled now, so a failure meanwhile is no unhandled rejection.
    taken.catch(() => undefined);
    return taken;
  }

  /**
   * Writes the chunks of `source` as they come, never joined (reading a paused stream
   * joins what has piled up, into new memory), `onTaken(chunk)` running once `out` has
   * taken each; resolves when `source` has ended. A failure of either stops both.
   */
  pump(source: Readable, onTaken?: (chunk: Buffer) => void): Promise<void> {
    const out = this.#out;
    return new Promise<void>((resolve, reject) => {
      if (source.errored || source.destroyed) {
        reject(source.errored ?? new Error('the source closed before its end'));
        return;
      }
      const onData = (chunk: Buffer) => {
        const more = out.write(chunk, (err) => {
          if (!err) onTaken?.(chunk);
        });
        if (!more) source.pause();
      };
      const onDrain = () => source.resume();
      const stop = () => {
        source.off('data', onData);
        source.off('end', onEnd);
        source.off('error', onError);
        source.off('close', onClose);
        out.off('drain', onDrain);
      };
      const onClose = () => onError(source.errored ?? new Error('the source closed before its end'));
      const onEnd = () => {
        stop();
        resolve();
      };
      const onError = (err: unknown) => {
        stop();
        reject(err);
      };
      this.#broken.catch((err: unknown) => {
        stop();
        source.destroy();
        reject(err);
      });
      out.on('drain', onDrain);
      source.on('error', onError);
      source.on('close', onClose);
      source.on('end', onEnd);
      source.on('data', onData);
    });
  }

  /** Ends `out` and resolves once it has finished. */
  async end(): Promise<void> {
    await Promise.race([
      new Promise<void>((resolve, reject) => {
        this.#out.end((err?: Error | null) => (err ? reject(err) : resolve()));
      }),
      this.#broken,
    ]);
  }

  /** Stops watching `out`. */
  dispose(): void {
    this.#out.off('error', this.#fail);
    this.#out.off('close', this.#onClose);
  }
}

/**
 * Gives `take` the chunks of `source` one by one as they come, never joined (reading a
 * paused stream joins what has piled up, into new memory), the source paused while
 * `take`'s promise is pending; resolves once `source` has ended and the last take is
 * done. A failure of either stops both.
 */
export function consume(source: Readable, take: (chunk: Buffer) => Promise<void> | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (source.errored || source.destroyed) {
      reject(source.errored ?? new Error('the source closed before its end'));
      return;
    }
    let pending: Promise<void> | undefined;
    let failed = false;
    const stop = () => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', fail);
      source.off('close', onClose);
    };
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      stop();
      source.destroy();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      let wait: Promise<void> | undefined;
      try {
        wait = take(chunk);
      } catch (err) {
        fail(err);
        return;
      }
      if (!wait) return;
      source.pause();
      pending = wait.then(() => {
        pending = undefined;
        if (!failed) source.resume();
      }, fail);
    };
    const onEnd = () => {
      stop();
      void (pending ?? Promise.resolve()).then(() => {
        if (!failed) resolve();
      });
    };
    const onClose = () => fail(source.errored ?? new Error('the source closed before its end'));
    source.on('error', fail);
    source.on('close', onClose);
    source.on('end', onEnd);
    source.on('data', onData);
  });
}

/**
 * Gives a buffer's memory back now instead of at some later garbage collection, by
 * detaching it (every view of it becomes empty): only for memory nothing else can
 * still read, a socket included. Never a slice of something larger (Node's pool of
 * small buffers, for one).
 */
export function freeBuffer(buffer: Buffer): void {
  const memory = buffer.buffer;
  if (memory instanceof ArrayBuffer && buffer.byteOffset === 0 && buffer.byteLength === memory.byteLength)
    memory.transfer(0);
}
