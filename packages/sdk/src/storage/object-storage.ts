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
  put(key: string, body: Readable, contentType: string): Promise<void>;
  get(key: string, range?: ByteRange): Promise<ObjectStream>;
  /** Size in bytes, or null when there is no such object. */
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
  /** Throws when the backend does not answer (readiness). */
  ping(): Promise<void>;
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
