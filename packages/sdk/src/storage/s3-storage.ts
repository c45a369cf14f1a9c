import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { StorageUnavailableError, type ByteRange, type ObjectStorage } from './object-storage.ts';

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
  async put(key: string, body: Readable, contentType: string): Promise<void> {
    const headers = { 'Content-Type': contentType };
    const head: Buffer[] = [];
    let headBytes = 0;
    let parts: PartUpload | undefined;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        if (parts) {
          await parts.write(chunk);
          continue;
        }
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes > PART_SIZE) {
          parts = new PartUpload(this.#client, this.#bucket, key);
          await parts.start(headers);
          for (const gathered of head) await parts.write(gathered);
          head.length = 0;
        }
      }
      if (parts) await parts.finish();
      else {
        const whole = head.length === 1 ? head[0]! : Buffer.concat(head, headBytes);
        await this.#client.putObject(this.#bucket, key, whole, headBytes, headers).catch((err: unknown) => {
          throw unavailable(err);
        });
      }
    } catch (err) {
      if (parts) await parts.abort();
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      return range
        ? await this.#client.getPartialObject(this.#bucket, key, range.start, range.end - range.start + 1)
        : await this.#client.getObject(this.#bucket, key);
    } catch (err) {
      throw unavailable(err);
    }
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

  async write(chunk: Buffer): Promise<void> {
    let at = 0;
    while (at < chunk.length) {
      if (this.#failure !== undefined) throw this.#failure;
      const n = chunk.copy(this.#buffers[this.#current]!, this.#filled, at);
      this.#filled += n;
      at += n;
      if (this.#filled === PART_SIZE) await this.#send();
    }
  }

  async finish(): Promise<void> {
    if (this.#filled > 0) await this.#send();
    await this.#sending;
    if (this.#failure !== undefined) throw this.#failure;
    try {
      await this.#client.completeMultipartUpload(this.#bucket, this.#key, this.#uploadId!, this.#etags);
    } catch (err) {
      throw unavailable(err);
    }
  }

  /** Nothing of the upload stays behind. */
  async abort(): Promise<void> {
    await this.#sending;
    if (this.#uploadId === undefined) return;
    await this.#client.abortMultipartUpload(this.#bucket, this.#key, this.#uploadId).catch(() => undefined);
    // In case the failure came after the parts were joined.
    await this.#client.removeObject(this.#bucket, this.#key).catch(() => undefined);
  }

  /** Sends the filled buffer as the next part once the previous part is sent; fills the other one meanwhile. */
  async #send(): Promise<void> {
    await this.#sending;
    if (this.#failure !== undefined) throw this.#failure;
    const payload = this.#buffers[this.#current]!.subarray(0, this.#filled);
    const partNumber = this.#etags.length + 1;
    this.#etags.push({ part: partNumber, etag: '' });
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
      );
    this.#current = 1 - this.#current;
    this.#filled = 0;
  }
}
