import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Group, Me, Message } from '@im/protocol';
import { Client as MinioClient } from 'minio';
import sharp from 'sharp';
import { eventually, expectations, startApi, type ApiHarness } from '../api/harness.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;
const QUOTA = 64 * 1024;

/** A page whose OpenGraph image is /pic.png, on loopback. */
async function startSite(image: Buffer) {
  const server: Server = createServer((req, res) => {
    if (req.url === '/pic.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(image);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<html><head><title>Card</title><meta property="og:image" content="/pic.png"></head></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * Link-preview images are the author's files: they count in the author's
 * storage use (and quota), and leave storage with their preview or message.
 */
describe('link-preview images on MinIO: counted and removed', () => {
  let api: ApiHarness;
  let site: Awaited<ReturnType<typeof startSite>>;
  let image: Buffer;
  let author: User;
  let group: Group;
  const { ok } = expectations(() => api);
  const converseId = () => group.panels[0]!.converseId;

  /** Preview image objects in the bucket. */
  const previewObjects = async () => {
    const client = new MinioClient(api.env.minio);
    const names: string[] = [];
    for await (const item of client.listObjectsV2(api.env.minio.bucket, 'p/', true) as AsyncIterable<{
      name?: string;
    }>)
      if (item.name) names.push(item.name);
    return names;
  };
  const used = async (user: User) => (await ok<Me>('GET', '/api/users/me', user)).storage.used;
  const send = (content: string, user = author) =>
    ok<Message>('POST', `/api/converses/${converseId()}/messages`, user, { content }, 201);
  const withImage = async (content: string, user = author) => {
    const sent = await send(content, user);
    const message = await eventually(
      () => ok<Message>('GET', `/api/messages/${sent.id}`, user),
      (m) => m.preview !== undefined,
    );
    assert.ok(message.preview?.imageFileId, 'the card has its image');
    return message;
  };

  before(async () => {
    image = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#884400' } })
      .png()
      .toBuffer();
    site = await startSite(image);
    api = await startApi(import.meta.url, (env) => ({
      OUTBOUND_ALLOW: '127.0.0.1',
      STORAGE: 's3',
      MINIO_URL: env.minio.url,
      S3_BUCKET: env.minio.bucket,
      FILE_QUOTA_BYTES: String(QUOTA),
    }));
    author = await api.user('pi');
    group = await ok<Group>('POST', '/api/groups', author, { name: 'Pictures' }, 201);
  });
  after(async () => {
    await api.close();
    await site.close();
  });

  it("counts the image in its author's storage use and removes it with the message", async () => {
    const start = await used(author);
    const objects = (await previewObjects()).length;
    const message = await withImage(`${site.origin}/a`);
    assert.equal(await used(author), start + image.length, 'the image counts for its author');
    assert.equal((await previewObjects()).length, objects + 1);

    await ok('DELETE', `/api/messages/${message.id}`, author, undefined, 204);
    const left = await eventually(previewObjects, (names) => names.length === objects);
    assert.equal(left.length, objects, 'its object is gone from the bucket');
    assert.equal(await used(author), start);
    const gone = await api.request('GET', `/api/files/${message.preview!.imageFileId}/info`, { token: author.token });
    assert.equal(gone.status, 404);
  });

  it('removes it with the preview, and when an edit drops the link (an edit keeping it keeps it)', async () => {
    const start = await used(author);
    const objects = (await previewObjects()).length;
    const removed = await withImage(`${site.origin}/b`);
    await ok('DELETE', `/api/messages/${removed.id}/preview`, author, undefined, 204);
    await eventually(previewObjects, (names) => names.length === objects);
    assert.equal((await previewObjects()).length, objects);

    const edited = await withImage(`see ${site.origin}/c`);
    const kept = await ok<Message>('PATCH', `/api/messages/${edited.id}`, author, {
      content: `still ${site.origin}/c`,
    });
    assert.equal(kept.preview?.imageFileId, edited.preview!.imageFileId);
    assert.equal((await previewObjects()).length, objects + 1);
    const dropped = await ok<Message>('PATCH', `/api/messages/${edited.id}`, author, { content: 'no link now' });
    assert.equal(dropped.preview, undefined);
    await eventually(previewObjects, (names) => names.length === objects);
    assert.equal((await previewObjects()).length, objects);
    assert.equal(await used(author), start);
  });

  it("gives a card without its image when the image would pass the author's quota", async () => {
    const full = await api.user('pq');
    const invite = await ok<{ code: string }>('POST', `/api/groups/${group.id}/invites`, author, {}, 201);
    await ok('POST', `/api/invites/${invite.code}/accept`, full);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(QUOTA - image.length + 1)]), 'filler.bin');
    const upload = await fetch(`${api.base}/api/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${full.token}` },
      body: form,
    });
    assert.equal(upload.status, 201);
    const filled = await used(full);
    const objects = (await previewObjects()).length;
    const sent = await send(`${site.origin}/d`, full);
    const message = await eventually(
      () => ok<Message>('GET', `/api/messages/${sent.id}`, full),
      (m) => m.preview !== undefined,
    );
    assert.deepEqual(message.preview, { url: `${site.origin}/d`, title: 'Card' });
    assert.equal(await used(full), filled);
    assert.equal((await previewObjects()).length, objects);
  });
});
