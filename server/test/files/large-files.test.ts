import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startMinio, startServerProcess, type MinioServerHandle, type ServerProcess } from '@im/dev-servers';
import { openTestEnv, type TestEnv } from '@im/testkit';
import { startApi, type ApiHarness } from '../api/harness.ts';

const MiB = 1024 * 1024;
const START = fileURLToPath(new URL('../../src/start.ts', import.meta.url));

/** `total` bytes made on the fly (never held whole), and their sha256 once read. */
function generated(total: number) {
  const block = randomBytes(MiB);
  const hash = createHash('sha256');
  let made = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (made >= total) {
        controller.close();
        return;
      }
      const chunk = Buffer.from(block.subarray(0, Math.min(MiB, total - made)));
      chunk.writeUInt32BE(made / MiB, 0);
      made += chunk.length;
      hash.update(chunk);
      controller.enqueue(chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

/** Samples the server process's RSS until stopped; resolves with the peak growth in MB. */
async function rssWatch(server: ServerProcess) {
  const start = await server.rssBytes();
  let peak = start;
  let running = true;
  const sampling = (async () => {
    while (running) {
      peak = Math.max(peak, await server.rssBytes());
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return async () => {
    running = false;
    await sampling;
    return Math.round((peak - start) / MiB);
  };
}

for (const backend of ['local', 's3'] as const) {
  describe(`a 200 MB file on ${backend === 'local' ? 'local disk' : 'MinIO'}`, () => {
    let env: TestEnv;
    let server: ServerProcess;
    before(async () => {
      env = await openTestEnv(import.meta.url);
      // The server in its own process, so its memory is measured alone.
      server = await startServerProcess(START, {
        MONGO_URL: env.mongoUrl,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'im-big-')),
        FILE_MAX_BYTES: String(256 * MiB),
        ...(backend === 's3'
          ? { STORAGE: 's3', MINIO_URL: env.minio.url, S3_BUCKET: env.minio.bucket }
          : { STORAGE: 'local' }),
      });
    });
    after(async () => {
      await server?.stop();
      await env?.close();
    });

    it('streams up and down byte for byte with the server process memory bounded', async (t) => {
      const reg = await fetch(`${server.base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: `big_${backend}`, password: 'big file password' }),
      });
      const { token } = (await reg.json()) as { token: string };
      const source = generated(200 * MiB);
      const upWatch = await rssWatch(server);
      const res = await fetch(`${server.base}/api/files?name=big.bin`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body: source.stream,
        duplex: 'half',
      } as RequestInit);
      const upGrowth = await upWatch();
      assert.equal(res.status, 201);
      const file = (await res.json()) as { id: string; size: number };
      assert.equal(file.size, 200 * MiB);

      const downWatch = await rssWatch(server);
      const down = await fetch(`${server.base}/api/files/${file.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const hash = createHash('sha256');
      for await (const chunk of down.body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
      const downGrowth = await downWatch();
      assert.equal(hash.digest('hex'), source.digest());
      t.diagnostic(`server RSS growth: upload ${upGrowth} MB, download ${downGrowth} MB`);
      assert.ok(upGrowth < 128, `upload grew RSS by ${upGrowth} MB`);
      assert.ok(downGrowth < 128, `download grew RSS by ${downGrowth} MB`);
    });
  });
}

describe('MinIO going away and coming back', () => {
  let minio: MinioServerHandle;
  let api: ApiHarness;
  before(async () => {
    minio = await startMinio({ dir: mkdtempSync(join(tmpdir(), 'im-minio-outage-')) });
    api = await startApi(import.meta.url, { STORAGE: 's3', MINIO_URL: minio.url, S3_BUCKET: 'outage' });
  });
  after(async () => {
    await api.close();
    await minio.stop();
  });

  it('answers 503 with a clear error while it is down, and works again once it is back', async () => {
    const { token } = await api.user('outage');
    const upload = (body: string) =>
      fetch(`${api.base}/api/files?name=a.txt`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        body,
      });
    const before = await upload('before');
    assert.equal(before.status, 201);
    const { id } = (await before.json()) as { id: string };

    await minio.stop();
    const during = await upload('during');
    assert.equal(during.status, 503);
    assert.deepEqual(await during.json(), {
      error: { code: 'IM_ERR_SERVICE_UNAVAILABLE', message: 'File storage is unavailable, retry later' },
    });
    const read = await fetch(`${api.base}/api/files/${id}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(read.status, 503);
    const ready = await fetch(`${api.base}/ready`);
    assert.equal(ready.status, 503);
    assert.deepEqual(((await ready.json()) as { failed: string[] }).failed, ['storage']);

    minio = await startMinio({
      dir: minio.dir,
      port: minio.port,
      accessKey: minio.accessKey,
      secretKey: minio.secretKey,
    });
    assert.equal((await upload('after')).status, 201);
    const again = await fetch(`${api.base}/api/files/${id}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(await again.text(), 'before');
    assert.equal((await fetch(`${api.base}/ready`)).status, 200);
  });
});
