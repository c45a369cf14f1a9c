import assert from 'node:assert/strict';
import type { FileInfo } from '@im/protocol';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuthOptions, Group, Invite, Message } from '@im/protocol';
import { Client as MinioClient } from 'minio';
import sharp from 'sharp';
import { startApi, type ApiHarness } from '../api/harness.ts';

type FileView = FileInfo;
type Backend = 'local' | 's3';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const MiB = 1024 * 1024;

/** Every object key stored, whichever the backend. */
async function storedKeys(api: ApiHarness, backend: Backend, dataDir: string): Promise<string[]> {
  if (backend === 'local') {
    const root = join(dataDir, 'files');
    try {
      return (readdirSync(root, { recursive: true, withFileTypes: true }) as Array<{ isFile(): boolean; name: string }>)
        .filter((e) => e.isFile())
        .map((e) => e.name);
    } catch {
      return [];
    }
  }
  const client = new MinioClient(api.env.minio);
  const names: string[] = [];
  for await (const item of client.listObjectsV2(api.env.minio.bucket, '', true) as AsyncIterable<{ name?: string }>)
    if (item.name) names.push(item.name);
  return names;
}

function fileSuite(backend: Backend) {
  describe(`files on ${backend === 'local' ? 'local disk' : 'MinIO'}`, () => {
    let api: ApiHarness;
    const dataDir = mkdtempSync(join(tmpdir(), 'im-files-'));
    let owner: Awaited<ReturnType<ApiHarness['user']>>;

    before(async () => {
      api = await startApi(import.meta.url, (env) => ({
        DATA_DIR: dataDir,
        FILE_MAX_BYTES: String(8 * MiB),
        FILE_UNATTACHED_GRACE_SEC: '1',
        ...(backend === 's3'
          ? { STORAGE: 's3', MINIO_URL: env.minio.url, S3_BUCKET: env.minio.bucket }
          : { STORAGE: 'local' }),
      }));
      owner = await api.user('file');
    });
    after(() => api.close());

    const upload = async (bytes: Uint8Array, name: string, type = 'application/octet-stream', token = owner.token) => {
      const form = new FormData();
      form.append('file', new Blob([bytes], { type }), name);
      const res = await fetch(`${api.base}/api/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      return {
        status: res.status,
        body: (await res.json()) as FileView & { error?: { code: string; message: string } },
      };
    };
    const download = (id: string, headers: Record<string, string> = {}, token = owner.token) =>
      fetch(`${api.base}/api/files/${id}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

    it('round-trips 0 B, 1 B and 5 MB byte for byte (multipart and raw bodies)', async () => {
      for (const size of [0, 1, 5 * MiB]) {
        const bytes = randomBytes(size);
        const up = await upload(bytes, `blob-${size}.bin`);
        assert.equal(up.status, 201, JSON.stringify(up.body));
        assert.equal(up.body.size, size);
        assert.equal(up.body.url, `/api/files/${up.body.id}`);
        const res = await download(up.body.id);
        assert.equal(res.status, 200);
        assert.equal(sha(new Uint8Array(await res.arrayBuffer())), sha(bytes));
      }
      const raw = randomBytes(1000);
      const res = await fetch(`${api.base}/api/files?name=raw.bin`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/octet-stream' },
        body: raw,
      });
      const view = (await res.json()) as FileView;
      assert.equal(res.status, 201);
      assert.equal(view.name, 'raw.bin');
      assert.equal(sha(new Uint8Array(await (await download(view.id)).arrayBuffer())), sha(raw));
    });

    it('stores a multipart file byte for byte, and refuses a body with any part but the file', async () => {
      const bytes = randomBytes(3 * MiB + 17);
      const only = new FormData();
      only.append('file', new Blob([bytes]), 'middle.bin');
      const res = await fetch(`${api.base}/api/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}` },
        body: only,
      });
      const view = (await res.json()) as FileView;
      assert.equal(res.status, 201, JSON.stringify(view));
      assert.equal(view.size, bytes.length);
      assert.equal(view.name, 'middle.bin');
      assert.equal(sha(new Uint8Array(await (await download(view.id)).arrayBuffer())), sha(bytes));

      // The API document declares one part, `file`: another part, before or after it, is a 400 and nothing is kept.
      const keysBefore = (await storedKeys(api, backend, dataDir)).length;
      const filesBefore = await api.node.app.mongo!.collection('files').countDocuments();
      for (const [first, second] of [
        ['note', 'file'],
        ['file', 'after'],
      ]) {
        const form = new FormData();
        for (const part of [first!, second!]) {
          if (part === 'file') form.append('file', new Blob([bytes]), 'middle.bin');
          else form.append(part, `${part} `.repeat(500));
        }
        const refused = await fetch(`${api.base}/api/files`, {
          method: 'POST',
          headers: { authorization: `Bearer ${owner.token}` },
          body: form,
        });
        assert.equal(refused.status, 400, `${first} then ${second}`);
        assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'IM_ERR_VALIDATION');
      }
      assert.equal((await storedKeys(api, backend, dataDir)).length, keysBefore);
      assert.equal(await api.node.app.mongo!.collection('files').countDocuments(), filesBefore);
    });

    it('refuses an over-limit upload with 413 and keeps nothing, declared or streamed', async () => {
      const keysBefore = (await storedKeys(api, backend, dataDir)).length;
      const filesBefore = await api.node.app.mongo!.collection('files').countDocuments();
      const declared = await upload(randomBytes(9 * MiB), 'big.bin');
      assert.equal(declared.status, 413);
      assert.equal(declared.body.error?.code, 'IM_ERR_PAYLOAD_TOO_LARGE');
      // Said as people say sizes, and advertised up front so clients can refuse before sending.
      assert.equal(declared.body.error?.message, 'Files can be at most 8 MB');
      const options = await api.request<AuthOptions>('GET', '/api/auth/options');
      assert.equal(options.body.maxUploadBytes, 8 * MiB);
      // No Content-Length: the limit is found while streaming.
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 12 * MiB) return controller.close();
          sent += MiB;
          controller.enqueue(randomBytes(MiB));
        },
      });
      const streamed = await fetch(`${api.base}/api/files?name=stream.bin`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/octet-stream' },
        body,
        duplex: 'half',
      } as RequestInit).catch((err: unknown) => ({ status: 0, err }));
      assert.ok(streamed.status === 413 || streamed.status === 0, `streamed over-limit answered ${streamed.status}`);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal((await storedKeys(api, backend, dataDir)).length, keysBefore, 'a partial object was left behind');
      assert.equal(await api.node.app.mongo!.collection('files').countDocuments(), filesBefore);
    });

    it('serves HTML sent as image/png as a text/html attachment, never rendered', async () => {
      const up = await upload(
        Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>'),
        'cat.png',
        'image/png',
      );
      assert.equal(up.body.mime, 'text/html');
      const res = await download(up.body.id);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.match(res.headers.get('content-disposition') ?? '', /^attachment;/);
      assert.match(res.headers.get('content-security-policy') ?? '', /sandbox/);
      const svg = await upload(
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'a.svg',
        'image/svg+xml',
      );
      assert.equal(svg.body.mime, 'image/svg+xml');
      assert.match((await download(svg.body.id)).headers.get('content-disposition') ?? '', /^attachment;/);
    });

    it('serves images inline, makes a thumbnail, and answers ranges and ETags', async () => {
      const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366aa' } })
        .png()
        .toBuffer();
      const up = await upload(png, 'photo.png', 'application/octet-stream');
      assert.equal(up.body.mime, 'image/png');
      const full = await download(up.body.id);
      assert.match(full.headers.get('content-disposition') ?? '', /^inline;/);
      const etag = full.headers.get('etag')!;
      assert.equal((await download(up.body.id, { 'if-none-match': etag })).status, 304);

      const head = await download(up.body.id, { range: 'bytes=0-9' });
      assert.equal(head.status, 206);
      assert.equal(head.headers.get('content-range'), `bytes 0-9/${png.length}`);
      assert.deepEqual(Buffer.from(await head.arrayBuffer()), png.subarray(0, 10));
      const tail = await download(up.body.id, { range: 'bytes=-5' });
      assert.deepEqual(Buffer.from(await tail.arrayBuffer()), png.subarray(png.length - 5));
      const open = await download(up.body.id, { range: `bytes=${png.length - 3}-` });
      assert.deepEqual(Buffer.from(await open.arrayBuffer()), png.subarray(png.length - 3));
      const outside = await download(up.body.id, { range: `bytes=${png.length}-` });
      assert.equal(outside.status, 416);
      assert.equal(outside.headers.get('content-range'), `bytes */${png.length}`);

      let thumb: Response | undefined;
      for (let i = 0; i < 100 && thumb?.status !== 200; i += 1) {
        thumb = await fetch(`${api.base}/api/files/${up.body.id}/thumbnail`, {
          headers: { authorization: `Bearer ${owner.token}` },
        });
        if (thumb.status !== 200) await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(thumb!.status, 200);
      assert.equal(thumb!.headers.get('content-type'), 'image/webp');
      const meta = await sharp(Buffer.from(await thumb!.arrayBuffer())).metadata();
      assert.equal(meta.format, 'webp');
      assert.ok(meta.width! <= 320 && meta.height! <= 320);
    });

    it('lets only the uploader, then members of a converse where it is attached, read a file', async () => {
      const member = await api.user('fmem');
      const outsider = await api.user('fout');
      const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Files' } }))
        .body;
      const { code } = (
        await api.request<Invite>('POST', `/api/groups/${group.id}/invites`, { token: owner.token, body: {} })
      ).body;
      await api.request('POST', `/api/invites/${code}/accept`, { token: member.token });
      const up = await upload(Buffer.from('shared notes'), 'notes.txt', 'text/plain');
      assert.equal((await download(up.body.id, {}, member.token)).status, 404);
      const converseId = group.panels[0]!.converseId;
      const stolen = await upload(Buffer.from('mine'), 'mine.txt', 'text/plain', member.token);
      const refused = await api.request('POST', `/api/converses/${converseId}/messages`, {
        token: owner.token,
        body: { content: 'not yours', attachments: [up.body.id, stolen.body.id] },
      });
      assert.equal(refused.status, 404, 'only your own uploads can be attached');
      // All or nothing: the sender's own file in the refused send was not attached either.
      assert.equal((await download(up.body.id, {}, member.token)).status, 404);
      const sent = await api.request<Message>('POST', `/api/converses/${converseId}/messages`, {
        token: owner.token,
        body: { content: 'see attached', attachments: [up.body.id] },
      });
      assert.equal(sent.status, 201);
      assert.deepEqual(sent.body.attachments, [up.body.id]);
      const res = await download(up.body.id, {}, member.token);
      assert.equal(res.status, 200);
      assert.equal(await res.text(), 'shared notes');
      assert.equal((await download(up.body.id, {}, outsider.token)).status, 404);
      assert.equal((await fetch(`${api.base}/api/files/${up.body.id}`)).status, 401);
      // Unattached files go after the grace period; attached ones stay.
      await new Promise((r) => setTimeout(r, 1100));
      const removed = (await api.broker.call('file.cleanup')) as number;
      assert.ok(removed >= 1);
      assert.equal((await download(stolen.body.id, {}, member.token)).status, 404);
      assert.equal((await download(up.body.id, {}, member.token)).status, 200);
    });

    it('never lets a file name reach the storage key', async () => {
      for (const name of ['../../../../etc/passwd', '..\\..\\boot.ini', '.hidden', '"><img src=x>.txt']) {
        const up = await upload(Buffer.from('x'), name, 'text/plain');
        assert.equal(up.status, 201, name);
        assert.ok(
          !up.body.name.includes('/') &&
            !up.body.name.includes('\\') &&
            !up.body.name.includes('\u0000') &&
            !up.body.name.includes('<'),
          up.body.name,
        );
        const doc = await api.node.app
          .mongo!.collection('files')
          .findOne({ _id: new (await import('mongoose')).Types.ObjectId(up.body.id) });
        assert.match(String(doc?.key), /^f\/\d{6}\/[0-9a-f-]{36}$/);
      }
      // Control characters: sent raw (multipart refuses them in its headers).
      const res = await fetch(`${api.base}/api/files?name=${encodeURIComponent('a\u0000b\u001f.txt')}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'text/plain' },
        body: 'x',
      });
      assert.equal(res.status, 201);
      assert.equal(((await res.json()) as FileView).name, 'ab.txt');
      if (backend === 'local') assert.deepEqual(readdirSync(dataDir).sort(), ['files']);
    });
  });
}

fileSuite('local');
fileSuite('s3');
