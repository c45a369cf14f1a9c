import type { Readable } from 'node:stream';

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
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size in bytes, or null when there is no such object. */
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
  /** Throws when the backend does not answer (readiness). */
  ping(): Promise<void>;
}

/** The backend could not be reached: a 503 for the client, not a 500. */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
}
