import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Client as MinioClient } from 'minio';
import { openTestEnv, type TestEnv } from '@im/testkit';
import { LocalStorage, S3Storage, type ObjectStorage } from '../src/index.ts';

const MiB = 1024 * 1024;
/** S3Storage's part size: objects up to it go in one PUT. */
const PART = 5 * MiB;

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** `bytes` in chunks of at most 64 KiB, as they come from a socket. */
const chunked = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
    })(),
  );

/** `bytes` in chunks of 64 KiB that each have memory of their own, as request bodies come. */
const owned = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += 64 * 1024) yield Buffer.from(bytes.subarray(at, at + 64 * 1024));
    })(),
  );

/** A release that frees each chunk's memory at once (as the upload handler does), counting the bytes. */
function freeing() {
  let bytes = 0;
  const release = (chunk: Buffer) => {
    bytes += chunk.length;
    const memory = chunk.buffer;
    if (memory instanceof ArrayBuffer && chunk.byteOffset === 0 && chunk.byteLength === memory.byteLength)
      memory.transfer(0);
  };
  return { release, released: () => bytes };
}

/** `bytes`, then a failure instead of the end. */
const failing = (bytes: Buffer) =>
  Readable.from(
    (async function* () {
      yield* chunked(bytes);
      throw new Error('the client went away');
    })(),
  );

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A writable that keeps what it is given, taking each chunk after a pause (a slow client). */
function collector(delayMs = 0) {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      // Copied only when taken, as a socket would: a sender filling the buffer earlier shows here.
      setTimeout(() => {
        chunks.push(Buffer.from(chunk));
        done();
      }, delayMs);
    },
  });
  return { out, bytes: () => Buffer.concat(chunks) };
}

/** What a backend holds, read back whole and by range, through a pipe and through sendTo. */
async function assertStored(storage: ObjectStorage, key: string, bytes: Buffer) {
  assert.equal(await storage.size(key), bytes.length);
  assert.equal(sha(await readAll(await storage.get(key))), sha(bytes));
  if (bytes.length > 2) {
    const range = { start: 1, end: bytes.length - 2 };
    assert.equal(sha(await readAll(await storage.get(key, range))), sha(bytes.subarray(1, -1)));
  }
  const body = await storage.get(key);
  if (body.sendTo) {
    const { out, bytes: sent } = collector();
    await body.sendTo(out);
    assert.ok(out.writableFinished, 'sendTo ends its destination');
    assert.equal(sha(sent()), sha(bytes));
  } else {
    body.destroy();
  }
}

describe('local disk storage', () => {
  const root = mkdtempSync(join(tmpdir(), 'im-storage-'));
  const storage = new LocalStorage(root);
  after(() => rmSync(root, { recursive: true, force: true }));

  it('stores and serves 0 B, 1 B, 300 KiB and 3 MiB byte for byte, whole and by range', async () => {
    for (const size of [0, 1, 300 * 1024, 3 * MiB]) {
      const bytes = randomBytes(size);
      const key = `f/202601/size-${size}`;
      await storage.put(key, chunked(bytes));
      await assertStored(storage, key, bytes);
    }
  });

  it('sends a range with two buffers taken in turn by a slow destination', async () => {
    const bytes = randomBytes(2 * MiB + 123);
    await storage.put('f/202601/slow', chunked(bytes));
    const range = { start: 1000, end: bytes.length - 1000 };
    const { out, bytes: sent } = collector(2);
    const body = await storage.get('f/202601/slow', range);
    assert.ok(body.sendTo);
    await body.sendTo(out);
    assert.equal(sha(sent()), sha(bytes.subarray(range.start, range.end + 1)));
  });

  it('fails sendTo when the destination closes early, and closes the file', async () => {
    await storage.put('f/202601/gone', chunked(randomBytes(2 * MiB)));
    const body = await storage.get('f/202601/gone');
    let taken = 0;
    const out = new Writable({
      write(_chunk, _encoding, done) {
        taken += 1;
        if (taken === 2) out.destroy();
        done();
      },
    });
    await assert.rejects(body.sendTo!(out));
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(body.destroyed, 'the file stream is closed');
  });

  it('hands each chunk back once written: freeing it then changes nothing stored', async () => {
    const bytes = randomBytes(3 * MiB + 5);
    const { release, released } = freeing();
    await storage.put('f/202605/freed', owned(bytes), 'application/octet-stream', { release });
    assert.equal(released(), bytes.length);
    await assertStored(storage, 'f/202605/freed', bytes);
  });

  it('refuses a missing key at get, before anything is sent', async () => {
    await assert.rejects(storage.get('f/202601/missing'), { code: 'ENOENT' });
    assert.equal(await storage.size('f/202601/missing'), null);
  });

  it('makes the directory again when it was removed after a first write', async () => {
    await storage.put('f/202602/first', chunked(randomBytes(10)));
    rmSync(join(root, 'f/202602'), { recursive: true });
    const bytes = randomBytes(1000);
    await storage.put('f/202602/second', chunked(bytes));
    await assertStored(storage, 'f/202602/second', bytes);
  });

  it('keeps nothing of a write whose source fails, not even the partial file', async () => {
    await assert.rejects(storage.put('f/202603/broken', failing(randomBytes(3 * MiB))), /went away/);
    assert.equal(await storage.size('f/202603/broken'), null);
    assert.deepEqual(readdirSync(join(root, 'f/202603')), []);
    assert.ok(!existsSync(join(root, 'f/202603/broken.part')));
  });
});

describe('S3 storage (MinIO)', () => {
  let env: TestEnv;
  let storage: S3Storage;
  let client: MinioClient;
  before(async () => {
    env = await openTestEnv(import.meta.url);
    storage = new S3Storage({ url: env.minio.url, bucket: env.minio.bucket, region: 'us-east-1' });
    await storage.ensureBucket();
    client = new MinioClient(env.minio);
  });
  after(() => env.close());

  const incompleteUploads = async () => {
    const uploads: unknown[] = [];
    for await (const upload of client.listIncompleteUploads(env.minio.bucket, '', true) as AsyncIterable<unknown>)
      uploads.push(upload);
    return uploads;
  };

  it('stores objects up to a part in one request and larger ones in parts, byte for byte', async () => {
    for (const size of [0, 1, 300 * 1024, PART, PART + 1, 12 * MiB + 7]) {
      const bytes = randomBytes(size);
      const key = `f/202601/size-${size}`;
      await storage.put(key, chunked(bytes), 'application/octet-stream');
      await assertStored(storage, key, bytes);
      // One request: a single-part object's ETag is its MD5; a multipart one's ends in -<parts>.
      const { etag } = await client.statObject(env.minio.bucket, key);
      if (size <= PART) assert.equal(etag, createHash('md5').update(bytes).digest('hex'));
      else assert.match(etag, new RegExp(`-${Math.ceil(size / PART)}$`));
    }
    assert.deepEqual(await incompleteUploads(), []);
  });

  it('hands each chunk back once sent or copied: freeing it then changes nothing stored', async () => {
    for (const size of [100 * 1024, 12 * MiB + 5]) {
      const bytes = randomBytes(size);
      const { release, released } = freeing();
      const key = `f/202605/freed-${size}`;
      await storage.put(key, owned(bytes), 'application/octet-stream', { release });
      assert.equal(released(), size);
      await assertStored(storage, key, bytes);
    }
  });

  it('keeps nothing of a write whose source fails, in one request or in parts', async () => {
    for (const size of [1000, 11 * MiB]) {
      const key = `f/202603/broken-${size}`;
      await assert.rejects(storage.put(key, failing(randomBytes(size)), 'application/octet-stream'), /went away/);
      assert.equal(await storage.size(key), null);
    }
    assert.deepEqual(await incompleteUploads(), []);
  });
});
