import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ByteRange, ObjectStorage } from './object-storage.ts';

const KEY = /^[a-z0-9][a-z0-9/_-]*[a-z0-9]$/;

/** Files under one directory. Writes go to a temporary name and are renamed when complete. */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  readonly #root: string;

  constructor(root: string) {
    this.#root = resolve(root);
  }

  #path(key: string): string {
    // Keys are made by the server, never from user input; this is a second lock on the door.
    if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return join(this.#root, key);
  }

  async put(key: string, body: Readable): Promise<void> {
    const path = this.#path(key);
    const partial = `${path}.part`;
    await mkdir(dirname(path), { recursive: true });
    try {
      await pipeline(body, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, path);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.#path(key);
    await access(path);
    return createReadStream(path, range ? { start: range.start, end: range.end } : {});
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
