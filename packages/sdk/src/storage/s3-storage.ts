import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { Client } from 'minio';
import { StorageUnavailableError, type ByteRange, type ObjectStorage } from './object-storage.ts';

export interface S3Options {
  /** http(s)://ACCESS_KEY:SECRET@host:port */
  url: string;
  bucket: string;
  region: string;
}

// Parts of multipart uploads are buffered by the client: keep them at S3's minimum.
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

  async put(key: string, body: Readable, contentType: string): Promise<void> {
    const meta = { 'Content-Type': contentType };
    let failure: unknown;
    // The minio client cannot see an error of the stream it is given (it would wait
    // forever), so it gets a relay that always ends; a failure of the source is kept
    // here, and whatever was uploaded is removed.
    body.on('error', () => undefined);
    try {
      // A stream of unknown length becomes a multipart upload, which cannot be empty.
      const first = await firstChunk(body);
      if (first === null) {
        await this.#client.putObject(this.#bucket, key, Buffer.alloc(0), 0, meta);
        return;
      }
      const relay = new PassThrough();
      void (async () => {
        try {
          for await (const chunk of prepend(first, body)) {
            if (!relay.write(chunk)) await once(relay, 'drain');
          }
        } catch (err) {
          failure = err;
        } finally {
          relay.end();
        }
      })();
      await this.#client.putObject(this.#bucket, key, relay, undefined, meta);
    } catch (err) {
      failure ??= unavailable(err);
    }
    if (failure !== undefined) {
      await this.#client.removeIncompleteUpload(this.#bucket, key).catch(() => undefined);
      await this.#client.removeObject(this.#bucket, key).catch(() => undefined);
      throw failure;
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

/** The first chunk of a stream, or null if it ends without data. */
function firstChunk(stream: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onReadable = () => {
      const chunk = stream.read() as Buffer | null;
      if (chunk === null) return;
      cleanup();
      resolve(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (err: unknown) => {
      cleanup();
      reject(err);
    };
    stream.on('readable', onReadable);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

async function* prepend(first: Buffer, rest: Readable): AsyncGenerator<Buffer> {
  yield first;
  for await (const chunk of rest) yield chunk as Buffer;
}
