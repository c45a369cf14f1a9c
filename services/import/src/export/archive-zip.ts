import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

/** A JSON array written item by item into the zip, so a converse of any length costs one item's memory. */
export interface JsonArrayEntry {
  write(item: unknown): Promise<void>;
  /** Closes the array; answers how many items it holds. */
  end(): Promise<number>;
}

/**
 * An export archive being written to a file with yazl: entries go out in the
 * order they are added, each streamed, so neither messages nor files are
 * ever held whole in memory.
 */
export class ArchiveZip {
  readonly #zip = new yazl.ZipFile();
  readonly #written: Promise<void>;
  readonly #mtime = new Date();
  /** Arrays still being written: an abort ends them, or the zip would wait for them for ever. */
  readonly #open = new Set<PassThrough>();

  constructor(path: string) {
    // yazl reports a lazy entry's failure on the zip itself, and then never ends its output.
    const failed = once(this.#zip, 'error').then(([err]: unknown[]) => Promise.reject(err as Error));
    // Only the first failure matters; later ones (of a zip being given up) are expected.
    this.#zip.on('error', () => undefined);
    this.#written = Promise.race([
      pipeline(this.#zip.outputStream as unknown as Readable, createWriteStream(path)),
      failed,
    ]);
    // Until finish() waits on it, a failure is kept for it rather than left unhandled.
    this.#written.catch(() => undefined);
  }

  addJson(name: string, value: unknown): void {
    this.#zip.addBuffer(Buffer.from(`${JSON.stringify(value, null, 2)}\n`), name, { mtime: this.#mtime });
  }

  jsonArray(name: string): JsonArrayEntry {
    const out = new PassThrough();
    this.#open.add(out);
    this.#zip.addReadStream(out, name, { mtime: this.#mtime });
    let count = 0;
    const put = async (text: string) => {
      if (!out.write(text)) await Promise.race([once(out, 'drain'), this.#written]);
    };
    return {
      write: async (item) => {
        await put(`${count === 0 ? '[\n' : ',\n'}${JSON.stringify(item)}`);
        count += 1;
      },
      end: async () => {
        this.#open.delete(out);
        out.end(count === 0 ? '[]\n' : '\n]\n');
        return count;
      },
    };
  }

  /** A file whose bytes are opened only when the zip reaches it (stored as is: files are mostly compressed already). */
  addLazy(name: string, size: number, open: () => Promise<Readable>): void {
    this.#zip.addReadStreamLazy(name, { mtime: this.#mtime, compress: false, size }, (cb) => {
      open().then(
        (stream) => cb(null, stream),
        (err: unknown) => cb(err, undefined as never),
      );
    });
  }

  async finish(): Promise<void> {
    this.#zip.end();
    await this.#written;
  }

  /** Gives up on a half-written archive (the caller removes the file): nothing is left waiting. */
  async abort(): Promise<void> {
    for (const out of this.#open) {
      out.on('error', () => undefined);
      out.destroy();
    }
    this.#open.clear();
    (this.#zip.outputStream as unknown as Readable).destroy();
    await this.#written.catch(() => undefined);
  }
}
