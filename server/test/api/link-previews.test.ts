import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Group, Message } from '@im/protocol';
import sharp from 'sharp';
import { eventually, expectations, startApi, type ApiHarness } from './harness.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

/** A small web site on loopback: what the server fetches, and who asked for what. */
async function startSite(image: Buffer) {
  const hits: Array<{ host: string; path: string }> = [];
  const finished = new Set<string>();
  const pages: Record<string, () => { type: string; body: Buffer | string }> = {
    '/og': () => ({
      type: 'text/html; charset=utf-8',
      body: `<!doctype html><html><head>
        <title>Plain title</title>
        <meta property="og:title" content="The &amp; Article">
        <meta property="og:description" content="What it is about">
        <meta property="og:site_name" content="Loopback News">
        <meta property="og:image" content="/pic.png">
        </head><body><h1>Hello</h1></body></html>`,
    }),
    '/titled': () => ({
      type: 'text/html',
      body: '<html><head><title>  Only a title </title></head><body></body></html>',
    }),
    '/twitter': () => ({
      type: 'text/html',
      body: '<html><head><meta name="twitter:title" content="Card title"><meta name="twitter:description" content="Card text"></head></html>',
    }),
    '/big': () => ({
      type: 'text/html',
      body: `<html><head><title>Huge</title></head><body>${'x'.repeat(1100 * 1024)}</body></html>`,
    }),
    '/pic.png': () => ({ type: 'image/png', body: image }),
  };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push({ host: req.headers.host ?? '', path });
    const { port } = server.address() as AddressInfo;
    // A moved page, and one that points the server at a refused address.
    const moved: Record<string, string> = {
      '/moved': '/og',
      '/inside': `http://127.0.0.2:${port}/og`,
    };
    res.on('finish', () => finished.add(path));
    if (moved[path]) return res.writeHead(301, { location: moved[path] }).end();
    const page = pages[path];
    if (!page) return res.writeHead(404).end();
    const { type, body } = page();
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, hits, finished, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('link previews', () => {
  let api: ApiHarness;
  let site: Awaited<ReturnType<typeof startSite>>;
  let author: User;
  let reader: User;
  let group: Group;
  let image: Buffer;
  const { ok, refused } = expectations(() => api);
  const converseId = () => group.panels[0]!.converseId;
  const send = (content: string, user = author) =>
    ok<Message>('POST', `/api/converses/${converseId()}/messages`, user, { content }, 201);
  const read = async (id: string) => {
    const page = await ok<Message[]>('GET', `/api/converses/${converseId()}/messages?limit=100`, reader);
    return page.find((m) => m.id === id)!;
  };
  const previewed = (id: string) =>
    eventually(
      () => read(id),
      (m) => m.preview !== undefined,
    );

  before(async () => {
    image = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#3366ff' } })
      .png()
      .toBuffer();
    site = await startSite(image);
    // Loopback is private: only 127.0.0.1 is allowed, as a test's own site (127.0.0.2 stays refused).
    api = await startApi(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1' });
    [author, reader] = await Promise.all([api.user('lpa'), api.user('lpr')]);
    group = await ok<Group>('POST', '/api/groups', author, { name: 'links' }, 201);
    const invite = await ok<{ code: string }>('POST', `/api/groups/${group.id}/invites`, author, {}, 201);
    await ok('POST', `/api/invites/${invite.code}/accept`, reader);
  });
  after(async () => {
    await api.close();
    await site.close();
  });

  it('reads OpenGraph tags and stores the image for the converse', async () => {
    const sent = await send(`look at this: http://127.0.0.1:${site.port}/og.`);
    assert.equal(sent.preview, undefined, 'the send does not wait for the page');
    const message = await previewed(sent.id);
    const { imageFileId, ...card } = message.preview!;
    assert.deepEqual(card, {
      url: `http://127.0.0.1:${site.port}/og`,
      title: 'The & Article',
      description: 'What it is about',
      siteName: 'Loopback News',
    });
    assert.ok(imageFileId);
    // Another member reads the stored copy from this server, not from the site.
    const bytes = await fetch(`${api.base}/api/files/${imageFileId}`, {
      headers: { authorization: `Bearer ${reader.token}` },
    });
    assert.equal(bytes.status, 200);
    assert.equal(bytes.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), image);
    assert.equal(site.hits.filter((h) => h.path === '/pic.png').length, 1);
  });

  it('falls back to <title>, and to a Twitter card', async () => {
    const titled = await previewed((await send(`http://127.0.0.1:${site.port}/titled`)).id);
    assert.deepEqual(titled.preview, { url: `http://127.0.0.1:${site.port}/titled`, title: 'Only a title' });
    // Only the first link counts: example.invalid does not resolve, so this message gets no card.
    const second = await send(`see https://example.invalid and http://127.0.0.1:${site.port}/twitter`);
    const twitter = await previewed((await send(`http://127.0.0.1:${site.port}/twitter`)).id);
    assert.deepEqual(twitter.preview, {
      url: `http://127.0.0.1:${site.port}/twitter`,
      title: 'Card title',
      description: 'Card text',
    });
    assert.equal((await read(second.id)).preview, undefined);
  });

  it('gives no preview for a refused private address or a page over 1 MB', async () => {
    const refusedMsg = await send(`internal: http://127.0.0.2:${site.port}/og`);
    const big = await send(`http://127.0.0.1:${site.port}/big`);
    // Once the site sent the whole large page, and a later link got its card, both are settled.
    await eventually(
      async () => site.finished.has('/big'),
      (done) => done,
    );
    await previewed((await send(`again http://127.0.0.1:${site.port}/titled`)).id);
    assert.equal((await read(refusedMsg.id)).preview, undefined);
    assert.equal((await read(big.id)).preview, undefined);
    assert.equal(
      site.hits.some((h) => h.host.startsWith('127.0.0.2')),
      false,
      'the guard never connected to the refused address',
    );
  });

  it('follows a redirect to the page, but never one to a refused address', async () => {
    const moved = await previewed((await send(`http://127.0.0.1:${site.port}/moved`)).id);
    assert.equal(moved.preview!.url, `http://127.0.0.1:${site.port}/moved`);
    assert.equal(moved.preview!.title, 'The & Article');
    const inside = await send(`http://127.0.0.1:${site.port}/inside`);
    await eventually(
      async () => site.finished.has('/inside'),
      (done) => done,
    );
    await previewed((await send(`settle http://127.0.0.1:${site.port}/titled`)).id);
    assert.equal((await read(inside.id)).preview, undefined);
    assert.equal(
      site.hits.some((h) => h.host.startsWith('127.0.0.2')),
      false,
      'the redirect to the refused address was not followed',
    );
  });

  it('lets only the author remove a preview', async () => {
    const sent = await send(`http://127.0.0.1:${site.port}/titled`);
    await previewed(sent.id);
    await refused('DELETE', `/api/messages/${sent.id}/preview`, reader, 403, 'IM_ERR_FORBIDDEN');
    assert.ok((await read(sent.id)).preview);
    await ok('DELETE', `/api/messages/${sent.id}/preview`, author, undefined, 204);
    assert.equal((await read(sent.id)).preview, undefined);
    await refused('DELETE', '/api/messages/0123456789abcdef01234567/preview', author, 404, 'IM_ERR_NOT_FOUND');
  });
});
