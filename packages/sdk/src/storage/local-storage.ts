import { createWriteStream, open as openFd } from 'node:fs';
import { access, mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  Destination,
  freeBuffer,
  type ByteRange,
  type ObjectStorage,
  type ObjectStream,
  type PutOptions,
} from './object-storage.ts';

const KEY = /^[a-z0-9][a-z0-9/_-]*[a-z0-9]$/;

/**
 * Bytes a file write may gather while the previous write is in the kernel: chunks
 * arrive from the network at up to 64 KiB, and a few are written together (writev)
 * instead of one thread-pool round trip each (fs's default lets one wait).
 */
const WRITE_BUFFER = 256 * 1024;
/** Bytes per read of a file being served (fs's default is 64 KiB). */
const READ_CHUNK = 256 * 1024;

/** Files under one directory. Writes go to a temporary name and are renamed when complete. */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  readonly #root: string;
  /** Directories known to exist: a write into one of them needs no mkdir first. */
  readonly #dirs = new Set<string>();

  constructor(root: string) {
    this.#root = resolve(root);
  }

  #path(key: string): string {
    // Keys are made by the server, never from user input; this is a second lock on the door.
    if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return join(this.#root, key);
  }

  /** Creates `path` (never an existing file), making its directory when it is missing. */
  async #create(path: string): Promise<number> {
    const dir = dirname(path);
    if (this.#dirs.has(dir)) {
      try {
        return await createFile(path);
      } catch (err) {
        // Removed behind our back: make it again.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        this.#dirs.delete(dir);
      }
    }
    await mkdir(dir, { recursive: true });
    this.#dirs.add(dir);
    return createFile(path);
  }

  async put(key: string, body: Readable, _contentType?: string, options: PutOptions = {}): Promise<void> {
    const path = this.#path(key);
    const partial = `${path}.part`;
    // A failure while the file is being opened is seen by the pump (as `errored`), not thrown.
    body.on('error', () => undefined);
    let fd: number;
    try {
      fd = await this.#create(partial);
    } catch (err) {
      body.destroy();
      throw err;
    }
    const out = createWriteStream(partial, { fd, highWaterMark: WRITE_BUFFER });
    // Closed (not only finished) before the rename; awaited once everything is written.
    const closed = finished(out);
    closed.catch(() => undefined);
    const destination = new Destination(out);
    try {
      try {
        await destination.pump(body, options.release);
        await destination.end();
      } finally {
        destination.dispose();
      }
      await closed;
      await rename(partial, path);
    } catch (err) {
      body.destroy();
      out.destroy();
      await rm(partial, { force: true });
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<ObjectStream> {
    // Opened here, so a missing file fails this call (before any header is sent).
    return new FileBody(await open(this.#path(key), 'r'), range);
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.#path(key))).size;
    } catch {
      return null;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  async ping(): Promise<void> {
    await mkdir(this.#root, { recursive: true });
    await access(this.#root);
  }
}

/**
 * A new file open for writing, as a plain descriptor: a stream over a FileHandle closes
 * the handle and is then told to close again, which costs an error object per file.
 */
const createFile = (path: string) =>
  new Promise<number>((resolve, reject) => {
    openFd(path, 'wx', (err, fd) => (err ? reject(err) : resolve(fd)));
  });

/**
 * A file's bytes (or a range of them) from an open handle, closed at the end. Read as a
 * stream, each read makes a buffer, as fs streams do; `sendTo` instead reads into two
 * buffers in turn, one filling while the destination takes the other, so serving a
 * file makes no garbage however large it is.
 */
class FileBody extends Readable {
  readonly #handle: FileHandle;
  #position: number;
  /** Last byte to send (inclusive); unknown until needed when the whole file is sent. */
  #end: number | undefined;
  #closing: Promise<void> | undefined;

  constructor(handle: FileHandle, range?: ByteRange) {
    super({ highWaterMark: READ_CHUNK });
    this.#handle = handle;
    this.#position = range?.start ?? 0;
    this.#end = range?.end;
  }

  override _read(): void {
    void this.#readNext().then(
      (chunk) => this.push(chunk),
      (err: unknown) => this.destroy(err as Error),
    );
  }

  async #readNext(): Promise<Buffer | null> {
    this.#end ??= (await this.#handle.stat()).size - 1;
    const length = Math.min(READ_CHUNK, this.#end - this.#position + 1);
    if (length <= 0) return null;
    const buffer = Buffer.allocUnsafeSlow(length);
    const { bytesRead } = await this.#handle.read(buffer, 0, length, this.#position);
    this.#position += bytesRead;
    if (bytesRead === 0) return null;
    return bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.#close().then(
      () => done(err),
      (closeErr: unknown) => done(err ?? (closeErr as Error)),
    );
  }

  #close(): Promise<void> {
    this.#closing ??= this.#handle.close();
    return this.#closing;
  }

  readonly sendTo = async (out: Writable): Promise<void> => {
    const destination = new Destination(out);
    try {
      this.#end ??= (await this.#handle.stat()).size - 1;
      const size = Math.min(READ_CHUNK, this.#end - this.#position + 1);
      const buffers: Buffer[] = [];
      let taken: Promise<void> = Promise.resolve();
      for (let turn = 0; this.#position <= this.#end; turn = 1 - turn) {
        // Two buffers at most: this one is read while the other is on its way out.
        const buffer = (buffers[turn] ??= Buffer.allocUnsafeSlow(size));
        const length = Math.min(size, this.#end - this.#position + 1);
        const { bytesRead } = await this.#handle.read(buffer, 0, length, this.#position);
        if (bytesRead === 0) throw new Error('the file is shorter than when it was opened');
        this.#position += bytesRead;
        await taken;
        taken = destination.taken(buffer.subarray(0, bytesRead));
      }
      await taken;
      await destination.end();
      // Taken, every byte: nothing reads these any more.
      for (const buffer of buffers) freeBuffer(buffer);
    } finally {
      destination.dispose();
      this.destroy();
    }
  };
}
