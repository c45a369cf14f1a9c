import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Group, Message } from '@im/protocol';
import { startApi, type ApiHarness } from '../api/harness.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;
type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/** Renders allowed per address in these tests (`public-render`). */
const RENDERS = 5;

/**
 * Web-public pages on the open internet: an anonymous client cannot make the
 * gateway render page after page (distinct `?before=`), nor empty every
 * page with a profile change, nor escape the per-address count by taking a
 * new IPv6 address of its /64; spoilers stay hidden on pages and in feeds.
 * The gateway trusts one proxy hop, so `X-Forwarded-For` names the client.
 */
describe('public pages under abuse', () => {
  let api: ApiHarness;

  /** A GET as `from` (the address the trusted proxy reports). */
  const get = (path: string, from?: string, headers: Record<string, string> = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(
        api.base + path,
        { headers: { ...headers, ...(from ? { 'x-forwarded-for': from } : {}) } },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });

  /** Pages and feeds this gateway rendered so far (`im_public_renders_total`, all formats). */
  const renders = async (): Promise<number> => {
    const text = await (await fetch(`${api.base}/metrics`)).text();
    let total = 0;
    for (const line of text.split('\n'))
      if (line.startsWith('im_public_renders_total')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
    return total;
  };

  /** A public group whose first panel is web-public, with `messages` messages by its owner. */
  const publicPanel = async (owner: User, messages: string[]) => {
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Open' } }))
      .body;
    const panel = group.panels[0]!;
    assert.equal(
      (await api.request('PATCH', `/api/groups/${group.id}`, { token: owner.token, body: { visibility: 'public' } }))
        .status,
      200,
    );
    const open = await api.request('PATCH', `/api/groups/${group.id}/panels/${panel.id}`, {
      token: owner.token,
      body: { webPublic: true },
    });
    assert.equal(open.status, 200, JSON.stringify(open.body));
    for (const content of messages) {
      const sent = await api.request<Message>('POST', `/api/converses/${panel.converseId}/messages`, {
        token: owner.token,
        body: { content },
      });
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
    }
    return panel;
  };

  before(async () => {
    api = await startApi(import.meta.url, {
      PUBLIC_URL: 'https://chat.example.org/',
      TRUST_PROXY: '1',
      RATE_LIMIT: 'on',
      RATE_LIMITS: `public-render=${RENDERS}/600,send=1000/60`,
    });
  });
  after(async () => {
    await api?.close();
  });

  it('limits renders of distinct ?before= per address, while kept pages and other addresses are served', async () => {
    const owner = await api.user('pages');
    const panel = await publicPanel(
      owner,
      Array.from({ length: 30 }, (_, i) => `note ${i + 1}`),
    );
    const attacker = '203.0.113.7';
    const newest = await get(`/p/${panel.id}`, attacker);
    assert.equal(newest.status, 200);
    const statuses: number[] = [];
    for (let before = 2; before < 2 + RENDERS; before += 1)
      statuses.push((await get(`/p/${panel.id}?before=${before}`, attacker)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429], 'the newest page and four older ones, then refused');
    const refused = await get(`/p/${panel.id}?before=20`, attacker);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers['retry-after']) >= 1, `Retry-After ${refused.headers['retry-after']}`);
    assert.equal((JSON.parse(refused.body) as { error: { code: string } }).error.code, 'IM_ERR_RATE_LIMITED');
    // Feeds and the JSON read count against the same renders.
    assert.equal((await get(`/p/${panel.id}/feed.atom?before=9`, attacker)).status, 429);
    assert.equal((await get(`/api/public/panels/${panel.id}/messages?before=9`, attacker)).status, 429);

    // What is kept is still served to the same address, without rendering.
    const rendered = await renders();
    const again = await get(`/p/${panel.id}?before=3`, attacker);
    assert.equal(again.status, 200);
    assert.ok(again.body.includes('note 2'));
    assert.equal((await get(`/p/${panel.id}`, attacker)).status, 200);
    assert.equal(await renders(), rendered);
    // Another address has renders of its own.
    const reader = await get(`/p/${panel.id}?before=20`, '198.51.100.9');
    assert.equal(reader.status, 200);
    assert.ok(reader.body.includes('note 19'));
  });

  it('serves the newest page, with its ETag, for any ?before= above the newest message', async () => {
    const owner = await api.user('above');
    const panel = await publicPanel(owner, ['first', 'second', 'third']);
    const from = '192.0.2.44';
    const newest = await get(`/p/${panel.id}`, from);
    assert.equal(newest.status, 200);
    const rendered = await renders();
    for (const before of [4, 5, 1000, 999_999_999_999_999]) {
      const page = await get(`/p/${panel.id}?before=${before}`, from);
      assert.equal(page.status, 200, `before=${before}`);
      assert.equal(page.headers.etag, newest.headers.etag, `before=${before}`);
      assert.equal(page.body, newest.body);
    }
    const feed = await get(`/p/${panel.id}/feed.atom`, from);
    assert.equal((await get(`/p/${panel.id}/feed.atom?before=77`, from)).headers.etag, feed.headers.etag);
    // Only the feed itself was rendered: the pages above the newest were the kept newest page.
    assert.equal(await renders(), rendered + 1);
    // An older page is still its own page.
    const older = await get(`/p/${panel.id}?before=3`, from);
    assert.equal(older.status, 200);
    assert.notEqual(older.headers.etag, newest.headers.etag);
    assert.ok(older.body.includes('second') && !older.body.includes('third'));
  });

  it("re-renders, after an author's profile change, only the pages that show that author", async () => {
    const alice = await api.user('alice');
    const bob = await api.user('bob');
    const pageA = await publicPanel(alice, ['by alice']);
    const pageB = await publicPanel(bob, ['by bob']);
    const from = '192.0.2.55';
    for (const panel of [pageA, pageB]) assert.equal((await get(`/p/${panel.id}`, from)).status, 200);
    const rendered = await renders();

    const renamed = await api.request('PATCH', '/api/users/me', {
      token: alice.token,
      body: { nickname: 'Alice Renamed' },
    });
    assert.equal(renamed.status, 200);
    // Page B never showed Alice: still the kept render.
    const b = await get(`/p/${pageB.id}`, from);
    assert.equal(b.status, 200);
    assert.equal(await renders(), rendered);
    // Page A shows her new name at once.
    const a = await get(`/p/${pageA.id}`, from);
    assert.ok(a.body.includes('Alice Renamed'));
    assert.equal(await renders(), rendered + 1);
  });

  it('re-renders the pages showing an author who deleted their account: their name is gone at once', async () => {
    const owner = await api.user('keeper');
    const carol = await api.user('carol');
    const panel = await publicPanel(owner, ['by the owner']);
    const groups = (await api.request<Group[]>('GET', '/api/groups', { token: owner.token })).body;
    const groupId = groups.find((g) => g.panels.some((p) => p.id === panel.id))!.id;
    const renamed = await api.request('PATCH', '/api/users/me', { token: carol.token, body: { nickname: 'Carol Q' } });
    assert.equal(renamed.status, 200);
    const joined = await api.request('POST', `/api/groups/${groupId}/join`, { token: carol.token, body: {} });
    assert.ok(joined.status < 300, JSON.stringify(joined.body));
    const sent = await api.request('POST', `/api/converses/${panel.converseId}/messages`, {
      token: carol.token,
      body: { content: 'by carol' },
    });
    assert.equal(sent.status, 201);
    const from = '192.0.2.61';
    assert.ok((await get(`/p/${panel.id}`, from)).body.includes('Carol Q'));

    assert.equal((await api.request('DELETE', '/api/users/me', { token: carol.token })).status, 204);
    const page = await get(`/p/${panel.id}`, from);
    assert.equal(page.status, 200);
    assert.ok(page.body.includes('by carol'), 'her message stays');
    assert.ok(!page.body.includes('Carol Q'), 'her name does not');
  });

  it('counts IPv6 clients by their /64 and IPv4-mapped addresses as IPv4', async () => {
    const owner = await api.user('six');
    const panel = await publicPanel(
      owner,
      Array.from({ length: 40 }, (_, i) => `six ${i + 1}`),
    );
    let before = 2;
    const miss = async (from: string) => (await get(`/p/${panel.id}?before=${before++}`, from)).status;
    const statuses: number[] = [];
    // Each request from another address of one /64.
    for (let i = 1; i <= RENDERS + 1; i += 1) statuses.push(await miss(`2001:db8:77:1::${i.toString(16)}`));
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    assert.equal(await miss('2001:db8:77:1:ffff:ffff:ffff:ffff'), 429);
    // The next /64 is someone else.
    assert.equal(await miss('2001:db8:77:2::1'), 200);

    const mapped: number[] = [];
    for (let i = 0; i < RENDERS; i += 1) mapped.push(await miss(i % 2 ? '::ffff:198.51.100.200' : '198.51.100.200'));
    assert.deepEqual(mapped, [200, 200, 200, 200, 200]);
    assert.equal(await miss('::ffff:198.51.100.200'), 429);
    assert.equal(await miss('198.51.100.200'), 429);
    assert.equal(await miss('198.51.100.201'), 200);
  });

  it('keeps spoilers hidden on the page (keyboard reachable, no script) and out of the feeds', async () => {
    const owner = await api.user('spoil');
    const panel = await publicPanel(owner, ['the end: ||the butler **did** it|| and more']);
    const from = '192.0.2.66';
    const page = await get(`/p/${panel.id}`, from);
    assert.equal(page.status, 200);
    assert.ok(!/<script/i.test(page.body));
    const spoiler = /<span class="spoiler" tabindex="0">the butler <strong>did<\/strong> it<\/span>/;
    assert.match(page.body, spoiler, 'a focusable span');
    const style = /<style>([\s\S]*)<\/style>/.exec(page.body)?.[1] ?? '';
    // Hidden until hovered or focused.
    assert.match(style, /\.spoiler:not\(:hover\):not\(:focus-within\)[^{]*\{[^}]*color:transparent/);
    assert.ok(!page.body.includes('content="the end: the butler'), 'the description hides it too');

    const { token } = (await api.request<{ token: string }>('POST', '/api/feeds/token', { token: owner.token })).body;
    for (const feed of ['feed.atom', 'feed.rss', `/feeds/${token}/converses/${panel.converseId}.atom`]) {
      const res = await get(feed.startsWith('/') ? feed : `/p/${panel.id}/${feed}`, from);
      assert.equal(res.status, 200);
      assert.ok(!res.body.includes('butler'), `${feed}: ${res.body}`);
      assert.ok(res.body.includes('[spoiler] and more'), feed);
    }
  });

  it('counts personal feed renders and token look-ups against the address too', async () => {
    const owner = await api.user('feeds');
    const panel = await publicPanel(owner, ['for members']);
    const { token } = (await api.request<{ token: string }>('POST', '/api/feeds/token', { token: owner.token })).body;
    const from = '192.0.2.77';
    const feed = `/feeds/${token}/converses/${panel.converseId}.atom`;
    assert.equal((await get(feed, from)).status, 200, 'a look-up of the token and a render: one count');
    const guesses: number[] = [];
    for (let i = 0; i < RENDERS; i += 1)
      guesses.push((await get(`/feeds/${'x'.repeat(42)}${i}/converses/${panel.converseId}.atom`, from)).status);
    assert.deepEqual(guesses, [404, 404, 404, 404, 429]);
    // The kept feed is still served to its reader.
    assert.equal((await get(feed, from)).status, 200);
  });

  it('counts personal feed requests for converses not kept (a known token and made-up converse ids)', async () => {
    const owner = await api.user('probe');
    const panel = await publicPanel(owner, ['mine']);
    const { token } = (await api.request<{ token: string }>('POST', '/api/feeds/token', { token: owner.token })).body;
    const from = '192.0.2.88';
    const feed = `/feeds/${token}/converses/${panel.converseId}.atom`;
    assert.equal((await get(feed, from)).status, 200, 'a look-up of the token and a render: one count');
    const probes: number[] = [];
    for (let i = 0; i < RENDERS; i += 1)
      probes.push((await get(`/feeds/${token}/converses/${'f'.repeat(23)}${i}.atom`, from)).status);
    assert.deepEqual(probes, [404, 404, 404, 404, 429], 'each asks the chat service about a converse');
    assert.equal((await get(feed, from)).status, 200, 'the kept feed is still served');
  });
});
