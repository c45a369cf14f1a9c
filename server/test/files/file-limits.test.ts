import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import type { FileInfo, Me, SignedFileUrl } from '@im/protocol';
import sharp from 'sharp';
import { startApi, type ApiHarness } from '../api/harness.ts';

type Err = { error: { code: string } };
type User = Awaited<ReturnType<ApiHarness['user']>>;

/** A real PNG of width x height, 1-bit grey, all black: a few KB that decode to `width * height` pixels. */
function hugePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((Math.ceil(width / 8) + 1) * height); // filter byte 0 and zero pixels per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('file limits: quota, signed URLs, thumbnails of huge images', () => {
  let api: ApiHarness;
  let dataDir: string;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'im-file-limits-'));
    api = await startApi(import.meta.url, {
      DATA_DIR: dataDir,
      STORAGE: 'local',
      FILE_QUOTA_BYTES: '100000',
      FILE_URL_TTL_SEC: '10',
    });
  });
  after(() => api.close());

  const upload = (bytes: Uint8Array, name: string, token: string) => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), name);
    return fetch(`${api.base}/api/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
  };
  const storedFiles = () => {
    const count = (dir: string): number =>
      readdirSync(dir, { withFileTypes: true }).reduce(
        (n, e) => n + (e.isDirectory() ? count(join(dir, e.name)) : 1),
        0,
      );
    try {
      return count(join(dataDir, 'files'));
    } catch {
      return 0;
    }
  };
  const me = async (user: User) => (await api.request<Me>('GET', '/api/users/me', { token: user.token })).body;

  it('reports storage use and refuses an upload past the quota with 413 IM_ERR_QUOTA, keeping nothing', async () => {
    const user = await api.user('quota');
    assert.deepEqual((await me(user)).storage, { used: 0, quota: 100_000 });
    assert.equal((await upload(Buffer.alloc(60_000, 1), 'a.bin', user.token)).status, 201);
    assert.deepEqual((await me(user)).storage, { used: 60_000, quota: 100_000 });
    const files = storedFiles();
    const over = await upload(Buffer.alloc(50_000, 2), 'b.bin', user.token);
    assert.equal(over.status, 413);
    assert.equal(((await over.json()) as Err).error.code, 'IM_ERR_QUOTA');
    assert.equal(storedFiles(), files, 'no bytes left behind');
    assert.equal((await me(user)).storage.used, 60_000);
    // Another user's room is their own.
    const other = await api.user('quota');
    assert.equal((await upload(Buffer.alloc(50_000, 2), 'b.bin', other.token)).status, 201);
  });

  it('lets uploads made at once pass the quota together never', async () => {
    const user = await api.user('quota');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => upload(Buffer.alloc(30_000, i), `${i}.bin`, user.token)),
    );
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 201, 201, 413, 413, 413]);
    assert.equal((await me(user)).storage.used, 90_000);
  });

  it('gives signed URLs that work without credentials, only for that file and variant, until they expire', async () => {
    const owner = await api.user('signed');
    const stranger = await api.user('signed');
    const up = (await (await upload(Buffer.from('signed bytes'), 'note.txt', owner.token)).json()) as FileInfo;
    const other = (await (await upload(Buffer.from('other bytes'), 'other.txt', owner.token)).json()) as FileInfo;
    const signed = await api.request<SignedFileUrl>('GET', `/api/files/${up.id}/url`, { token: owner.token });
    assert.equal(signed.status, 200);
    assert.match(signed.body.url, new RegExp(`^/api/files/${up.id}\\?exp=\\d+&sig=[A-Za-z0-9_-]+$`));
    assert.ok(!signed.body.url.includes(owner.token));
    const ttl = Date.parse(signed.body.expiresAt) - Date.now();
    assert.ok(ttl > 0 && ttl <= 70_000, `expires in ${ttl} ms`);

    const bytes = await fetch(api.base + signed.body.url);
    assert.equal(bytes.status, 200);
    assert.equal(await bytes.text(), 'signed bytes');
    const query = signed.body.url.slice(signed.body.url.indexOf('?'));
    const tampered = signed.body.url.replace(/sig=./, (m) => (m.endsWith('A') ? 'sig=B' : 'sig=A'));
    for (const url of [
      `/api/files/${other.id}${query}`,
      `/api/files/${up.id}/thumbnail${query}`,
      tampered,
      `/api/files/${up.id}?exp=9999999999&sig=${query.split('sig=')[1]}`,
      `/api/files/${up.id}?access_token=${owner.token}`,
    ]) {
      const res = await fetch(api.base + url);
      assert.equal(res.status, 401, url);
      assert.equal(((await res.json()) as Err).error.code, 'IM_ERR_UNAUTHORIZED', url);
    }
    // Only those who may read the file get a URL for it.
    const refused = await api.request<Err>('GET', `/api/files/${up.id}/url`, { token: stranger.token });
    assert.equal(refused.status, 404);
    const bad = await api.request<Err>('GET', `/api/files/${up.id}/url?variant=original`, { token: owner.token });
    assert.equal(bad.status, 400);
    // A text file has no preview to sign.
    const noThumb = await api.request<Err>('GET', `/api/files/${up.id}/url?variant=thumbnail`, { token: owner.token });
    assert.equal(noThumb.status, 404);
  });

  it('stores an image over 50 megapixels without decoding it for a preview; smaller ones get theirs', async () => {
    const user = await api.user('thumb');
    const huge = hugePng(12_000, 12_000); // 144 megapixels
    assert.ok(huge.length < 100_000, `${huge.length} bytes`);
    const big = await upload(huge, 'huge.png', user.token);
    assert.equal(big.status, 201);
    const bigInfo = (await big.json()) as FileInfo;
    assert.equal(bigInfo.mime, 'image/png');
    const small = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const smallInfo = (await (await upload(small, 'small.png', user.token)).json()) as FileInfo;
    // Queued after the huge one: once the small one has its preview, the huge one was dealt with.
    const thumbOf = (id: string) =>
      fetch(`${api.base}/api/files/${id}/thumbnail`, { headers: { authorization: `Bearer ${user.token}` } });
    let status = 0;
    for (let i = 0; i < 200 && status !== 200; i++) {
      status = (await thumbOf(smallInfo.id)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(status, 200);
    assert.equal((await thumbOf(bigInfo.id)).status, 404);
    const health = await fetch(`${api.base}/health`);
    assert.equal(health.status, 200);
  });
});
