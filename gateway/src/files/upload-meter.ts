import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { ImError, SNIFF_BYTES } from '@im/sdk';

/**
 * Passes an upload through while counting, hashing (sha256) and keeping the
 * first bytes for type sniffing. Past `limit` bytes it fails at once with
 * `tooLarge()` (IM_ERR_PAYLOAD_TOO_LARGE, or IM_ERR_QUOTA when the quota is
 * the bound), which stops the storage write mid-stream.
 */
export class UploadMeter extends Transform {
  bytes = 0;
  readonly #hash = createHash('sha256');
  readonly #limit: number;
  readonly #tooLarge: () => Error;
  #head: Buffer[] = [];
  #headBytes = 0;

  constructor(
    limit: number,
    tooLarge = () => new ImError('IM_ERR_PAYLOAD_TOO_LARGE', `Files are limited to ${limit} bytes`),
  ) {
    super();
    this.#limit = limit;
    this.#tooLarge = tooLarge;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.#limit) {
      done(this.#tooLarge());
      return;
    }
    this.#hash.update(chunk);
    if (this.#headBytes < SNIFF_BYTES) {
      // A copy: the chunk itself may be freed once stored.
      this.#head.push(Buffer.from(chunk.subarray(0, SNIFF_BYTES - this.#headBytes)));
      this.#headBytes += Math.min(chunk.length, SNIFF_BYTES - this.#headBytes);
    }
    done(null, chunk);
  }

  get head(): Buffer {
    return Buffer.concat(this.#head, this.#headBytes);
  }

  digest(): string {
    return this.#hash.digest('hex');
  }
}
