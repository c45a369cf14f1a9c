import type { Readable, Writable } from 'node:stream';
import { Client } from 'minio';
import {
  consume,
  Destination,
  freeBuffer,
  StorageUnavailableError,
  type ByteRange,
  type ObjectStorage,
  type ObjectStream,
  type PutOptions,
} from './object-storage.ts';

export interface S3Options {
  /** http(s)://ACCESS_KEY:SECRET@host:port */
  url: string;
  bucket: string;
  region: string;
}

// Objects up to this size go in one PUT; larger ones in parts of this size (S3's minimum part),
// which caps an object at 10,000 parts (48.8 GiB), as the minio client did with it.
const PART_SIZE = 5 * 1024 * 1024;

const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'UND_ERR_SOCKET',
]);

function unavailable(err: unknown): unknown {
  const code =
    (err as { code?: string; cause?: { code?: string } } | null)?.code ??
    (err as { cause?: { code?: string } } | null)?.cause?.code;
  return code && NETWORK_ERRORS.has(code) ? new StorageUnavailableError(`file storage is unreachable (${code})`) : err;
}

/** MinIO or any S3, through the minio client. */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  readonly #client: Client;
  readonly #bucket: string;
  readonly #region: string;

  constructor({ url, bucket, region }: S3Options) {
    const parsed = new URL(url);
    this.#client = new Client({
      endPoint: parsed.hostname,
      port: parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80,
      useSSL: parsed.protocol === 'https:',
      accessKey: decodeURIComponent(parsed.username),
      secretKey: decodeURIComponent(parsed.password),
      region,
      partSize: PART_SIZE,
    });
    this.#bucket = bucket;
    this.#region = region;
  }

  /** Creates the bucket when it is missing. */
  async ensureBucket(): Promise<void> {
    try {
      if (!(await this.#client.bucketExists(this.#bucket))) await this.#client.makeBucket(this.#bucket, this.#region);
    } catch (err) {
      throw unavailable(err);
    }
  }

  /**
   * Up to one part's worth, the object is gathered and sent in one PUT of known length;
   * beyond that it becomes a multipart upload whose parts are sent while the next one
   * is received. The stream is read here and the client only ever gets whole buffers
   * (a stream given to it that fails would leave it waiting forever).
   */
  async put(key: string, body: Readable, contentType: string, { release }: PutOptions = {}): Promise<void> {
    const headers = { 'Content-Type': contentType };
    const head: Buffer[] = [];
    let headBytes = 0;
    let parts: PartUpload | undefined;
    /** Takes one chunk; a promise only while the part buffers are both busy (the source waits). */
    const take = (chunk: Buffer): Promise<void> | undefined => {
      if (parts) return after(parts.write(chunk), () => release?.(chunk));
      head.push(chunk);
      headBytes += chunk.length;
      if (headBytes <= PART_SIZE) return undefined;
      parts = new PartUpload(this.#client, this.#bucket, key);
      return parts.start(headers).then(async () => {
        for (const gathered of head) {
          await parts!.write(gathered);
          release?.(gathered);
        }
        head.length = 0;
      });
    };
    try {
      await consume(body, take);
      if (parts) {
        await parts.finish();
        return;
      }
      const whole = head.length === 1 ? head[0]! : Buffer.concat(head, headBytes);
      // Copied into `whole`: done with.
      if (whole !== head[0]) for (const gathered of head) release?.(gathered);
      try {
        // The request itself: putObject would copy the buffer and hash it twice (MD5 unsent over http).
        await this.#client.makeRequestAsyncOmit(
          { method: 'PUT', bucketName: this.#bucket, objectName: key, headers },
          whole,
        );
      } catch (err) {
        throw unavailable(err);
      }
      // Stored: the request has sent every byte. Until then the socket may still hold them.
      if (whole === head[0]) release?.(whole);
      else freeBuffer(whole);
    } catch (err) {
      if (parts) await parts.abort();
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<ObjectStream> {
    let response: Readable;
    try {
      response = range
        ? await this.#client.getPartialObject(this.#bucket, key, range.start, range.end - range.start + 1)
        : await this.#client.getObject(this.#bucket, key);
    } catch (err) {
      throw unavailable(err);
    }
    return Object.assign(response, { sendTo: (out: Writable) => sendResponse(response, out) });
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await this.#client.statObject(this.#bucket, key)).size;
    } catch (err) {
      if ((err as { code?: string }).code === 'NotFound' || (err as { code?: string }).code === 'NoSuchKey')
        return null;
      throw unavailable(err);
    }
  }

  async remove(key: string): Promise<void> {
    try {
      await this.#client.removeObject(this.#bucket, key);
    } catch (err) {
      throw unavailable(err);
    }
  }

  async ping(): Promise<void> {
    try {
      if (!(await this.#client.bucketExists(this.#bucket))) throw new Error(`bucket ${this.#bucket} is missing`);
    } catch (err) {
      throw unavailable(err);
    }
  }
}

/** Runs `then` once `wait` has settled well, at once when there is nothing to wait for. */
function after(wait: Promise<void> | undefined, then: () => void): Promise<void> | undefined {
  if (!wait) {
    then();
    return undefined;
  }
  return wait.then(then);
}

/**
 * Writes an object's response to `out` and ends it, each chunk freed as soon as `out`
 * has taken it: they are the HTTP client's copies of what it read, held by nothing else,
 * and left to the garbage collector they pile up (a full collection per few dozen MB).
 */
async function sendResponse(response: Readable, out: Writable): Promise<void> {
  const destination = new Destination(out);
  try {
    await destination.pump(response, freeBuffer);
    await destination.end();
  } finally {
    destination.dispose();
    response.destroy();
  }
}

/**
 * One object sent as S3 multipart parts of PART_SIZE: two part buffers, one filling
 * from the stream while the other is on the wire, so memory stays at two parts
 * whatever the object's size (and the source waits while both are busy).
 */
class PartUpload {
  readonly #client: Client;
  readonly #bucket: string;
  readonly #key: string;
  #uploadId: string | undefined;
  readonly #buffers = [Buffer.allocUnsafe(PART_SIZE), Buffer.allocUnsafe(PART_SIZE)];
  /** Which buffer is filling, and how far. */
  #current = 0;
  #filled = 0;
  #sending: Promise<void> = Promise.resolve();
  /** A part is on its way: the buffer it was sent from is not to be filled yet. */
  #busy = false;
  #failure: unknown;
  readonly #etags: Array<{ part: number; etag: string }> = [];

  constructor(client: Client, bucket: string, key: string) {
    this.#client = client;
    this.#bucket = bucket;
    this.#key = key;
  }

  async start(headers: Record<string, string>): Promise<void> {
    try {
      this.#uploadId = await this.#client.initiateNewMultipartUpload(this.#bucket, this.#key, headers);
    } catch (err) {
      throw unavailable(err);
    }
  }

  /** Copies `chunk` into the part buffers; a promise only when it has to wait for a part to go out. */
  write(chunk: Buffer, from = 0): Promise<void> | undefined {
    for (let at = from; at < chunk.length;) {
      if (this.#failure !== undefined) throw this.#failure;
      const n = chunk.copy(this.#buffers[this.#current]!, this.#filled, at);
      this.#filled += n;
      at += n;
      if (this.#filled < PART_SIZE) continue;
      if (this.#busy) return this.#sending.then(() => this.#afterWait(chunk, at));
      this.#send();
    }
    return undefined;
  }

  async #afterWait(chunk: Buffer, at: number): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    this.#send();
    await this.write(chunk, at);
  }

  async finish(): Promise<void> {
    if (this.#filled > 0) {
      await this.#sending;
      if (this.#failure !== undefined) throw this.#failure;
      this.#send();
    }
    await this.#sending;
    if (this.#failure !== undefined) throw this.#failure;
    try {
      await this.#client.completeMultipartUpload(this.#bucket, this.#key, this.#uploadId!, this.#etags);
    } catch (err) {
      throw unavailable(err);
    }
    // Every part was stored, so every request has sent its bytes: the memory can go now.
    for (const buffer of this.#buffers) freeBuffer(buffer);
  }

  /** Nothing of the upload stays behind. */
  async abort(): Promise<void> {
    await this.#sending;
    if (this.#uploadId === undefined) return;
    await this.#client.abortMultipartUpload(this.#bucket, this.#key, this.#uploadId).catch(() => undefined);
    // In case the failure came after the parts were joined.
    await this.#client.removeObject(this.#bucket, this.#key).catch(() => undefined);
  }

  /** Sends the filled buffer as the next part (none may be on its way); the other one fills meanwhile. */
  #send(): void {
    const payload = this.#buffers[this.#current]!.subarray(0, this.#filled);
    const partNumber = this.#etags.length + 1;
    this.#etags.push({ part: partNumber, etag: '' });
    this.#busy = true;
    this.#sending = this.#client
      .uploadPart(
        { bucketName: this.#bucket, objectName: this.#key, uploadID: this.#uploadId!, partNumber, headers: {} },
        payload,
      )
      .then(
        ({ etag }) => {
          this.#etags[partNumber - 1] = { part: partNumber, etag };
        },
        (err: unknown) => {
          this.#failure ??= unavailable(err);
        },
      )
      .finally(() => {
        this.#busy = false;
      });
    this.#current = 1 - this.#current;
    this.#filled = 0;
  }
}
