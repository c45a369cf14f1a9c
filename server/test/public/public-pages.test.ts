import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Group, Message } from '@im/protocol';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';

type Raw = { status: number; headers: IncomingHttpHeaders; body: Buffer };

const HOSTILE = `<script>alert("x")</script> ]]> & 'quotes' "double" \u0001\u0008ctl end`;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const RFC822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Character references (&#39;) decoded, as every XML parser does.
  htmlEntities: true,
  isArray: (name) => ['entry', 'item', 'link'].includes(name),
});

/** Well-formed XML (a real parser's verdict), parsed. */
function parseXml(text: string): Record<string, unknown> {
  const verdict = XMLValidator.validate(text);
  assert.equal(verdict, true, `not well-formed: ${JSON.stringify(verdict)}`);
  return xml.parse(text) as Record<string, unknown>;
}

type AtomEntry = {
  id: string;
  title: string;
  updated: string;
  published: string;
  author: { name: string };
  content: { '#text': string; '@type': string };
  link: Array<{ '@href': string }>;
};

/**
 * Web-public panels through the real servers: the page, the Atom and RSS
 * feeds checked element by element with an XML parser, hostile content,
 * conditional requests, compression, paging, and changes shown at once.
 */
describe('web-public panel pages and feeds', () => {
  const { api } = apiSuite(import.meta.url, { PUBLIC_URL: 'https://chat.example.org/' });
  let owner: User;
  let group: Group;
  let panelId: string;
  let converseId: string;

  /** A GET with exactly these headers (fetch would decompress and add its own). */
  const raw = (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(api.base + path, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  const text = async (path: string) => {
    const res = await raw(path);
    assert.equal(res.status, 200, `${path}: ${res.status} ${res.body.toString()}`);
    return res.body.toString();
  };
  const send = async (content: string, user = owner) => {
    const res = await api.request<Message>('POST', `/api/converses/${converseId}/messages`, {
      token: user.token,
      body: { content },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  const atomEntries = async () => {
    const doc = parseXml(await text(`/p/${panelId}/feed.atom`)) as { feed: { entry?: AtomEntry[] } };
    return doc.feed.entry ?? [];
  };

  before(async () => {
    owner = await api.user('own');
    const patched = await api.request('PATCH', '/api/users/me', {
      token: owner.token,
      body: { nickname: `Eve <img src=x onerror=alert(1)> & "co"` },
    });
    assert.equal(patched.status, 200);
    group = (
      await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Town <hall> & co' } })
    ).body;
    panelId = group.panels[0]!.id;
    converseId = group.panels[0]!.converseId;
    const pub = await api.request('PATCH', `/api/groups/${group.id}`, {
      token: owner.token,
      body: { visibility: 'public', description: `Talk & "news" <b>here</b>` },
    });
    assert.equal(pub.status, 200);
    const open = await api.request('PATCH', `/api/groups/${group.id}/panels/${panelId}`, {
      token: owner.token,
      body: { webPublic: true },
    });
    assert.equal(open.status, 200, JSON.stringify(open.body));
  });

  it('renders the page without scripts, every user string escaped, with OpenGraph and canonical links', async () => {
    await send('**bold** and [a link](https://example.com/x?a=1&b=2) and [bad](javascript:alert(1))');
    await send(HOSTILE);
    const res = await raw(`/p/${panelId}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    const html = res.body.toString();
    assert.ok(!/<script/i.test(html), 'no script element at all');
    assert.ok(!/<img/i.test(html), 'no markup from a display name');
    assert.ok(
      html.includes(`&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; ]]&gt; &amp; 'quotes' &quot;double&quot;`),
      html,
    );
    assert.ok(!html.includes('\u0001') && !html.includes('\u0008'), 'control characters dropped');
    assert.ok(html.includes('<strong>bold</strong>'));
    assert.ok(html.includes('href="https://example.com/x?a=1&amp;b=2"'));
    assert.ok(!html.includes('href="javascript:'), 'javascript: links stay text');
    assert.ok(html.includes('Eve &lt;img src=x onerror=alert(1)&gt; &amp; &quot;co&quot;'));
    assert.ok(html.includes('<title>#general · Town &lt;hall&gt; &amp; co</title>'));
    assert.ok(html.includes(`<link rel="canonical" href="https://chat.example.org/p/${panelId}">`));
    assert.ok(html.includes('<meta property="og:title" content="#general · Town &lt;hall&gt; &amp; co">'));
    assert.ok(html.includes('<meta name="description" content="Talk &amp; &quot;news&quot; &lt;b&gt;here&lt;/b&gt;">'));
    assert.ok(html.includes(`href="https://chat.example.org/p/${panelId}/feed.atom"`));
    assert.ok(html.includes(`href="https://chat.example.org/g/${group.id}/${converseId}">Join the conversation`));
  });

  it('publishes an Atom 1.0 feed that follows the specification', async () => {
    const res = await raw(`/p/${panelId}/feed.atom`);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/atom+xml; charset=utf-8');
    const doc = parseXml(res.body.toString()) as {
      feed: {
        '@xmlns': string;
        id: string;
        title: string;
        subtitle: string;
        updated: string;
        link: Array<{ '@rel': string; '@href': string; '@type': string }>;
        entry: AtomEntry[];
      };
    };
    const { feed } = doc;
    assert.equal(feed['@xmlns'], 'http://www.w3.org/2005/Atom');
    assert.match(feed.id, /^urn:uuid:[0-9a-f-]{36}$/);
    assert.equal(feed.title, '#general · Town <hall> & co');
    assert.equal(feed.subtitle, 'Talk & "news" <b>here</b>');
    assert.match(feed.updated, RFC3339);
    assert.deepEqual(
      feed.link.map((l) => [l['@rel'], l['@href']]),
      [
        ['self', `https://chat.example.org/p/${panelId}/feed.atom`],
        ['alternate', `https://chat.example.org/p/${panelId}`],
      ],
    );
    const [newest, older] = feed.entry;
    assert.ok(newest && older);
    for (const entry of feed.entry) {
      assert.match(entry.id, /^urn:uuid:[0-9a-f-]{36}$/);
      assert.match(entry.updated, RFC3339);
      assert.match(entry.published, RFC3339);
      assert.equal(entry.author.name, 'Eve <img src=x onerror=alert(1)> & "co"');
      assert.equal(entry.content['@type'], 'html');
      assert.ok(entry.link[0]!['@href'].startsWith(`https://chat.example.org/p/${panelId}?before=`));
    }
    // Newest first; the content is escaped HTML, whose own text keeps the hostile string inert.
    assert.ok(newest.content['#text'].includes('&lt;script&gt;alert('), newest.content['#text']);
    assert.ok(!newest.content['#text'].includes('<script'));
    assert.ok(newest.title.startsWith(`<script>alert("x")</script> ]]> & 'quotes'`), newest.title);
    assert.ok(older.content['#text'].includes('<strong>bold</strong>'));
    assert.equal(feed.updated, newest.updated);
  });

  it('publishes the same messages as RSS 2.0 with guids that are not links', async () => {
    const res = await raw(`/p/${panelId}/feed.rss`);
    assert.equal(res.headers['content-type'], 'application/rss+xml; charset=utf-8');
    const doc = parseXml(res.body.toString()) as {
      rss: {
        '@version': string;
        channel: {
          title: string;
          link: string[];
          description: string;
          lastBuildDate: string;
          item: Array<{
            title: string;
            link: string[];
            description: string;
            guid: { '#text': string; '@isPermaLink': string };
            pubDate: string;
            'dc:creator': string;
          }>;
        };
      };
    };
    assert.equal(doc.rss['@version'], '2.0');
    const { channel } = doc.rss;
    assert.equal(channel.title, '#general · Town <hall> & co');
    assert.equal(channel.link[0], `https://chat.example.org/p/${panelId}`);
    assert.equal(channel.description, 'Talk & "news" <b>here</b>');
    assert.match(channel.lastBuildDate, RFC822);
    const entries = await atomEntries();
    assert.equal(channel.item.length, entries.length);
    channel.item.forEach((item, i) => {
      assert.equal(item.guid['@isPermaLink'], 'false');
      assert.equal(item.guid['#text'], entries[i]!.id, 'the same stable id in both feeds');
      assert.match(item.pubDate, RFC822);
      assert.equal(item['dc:creator'], 'Eve <img src=x onerror=alert(1)> & "co"');
      assert.equal(item.title, entries[i]!.title);
    });
  });

  it('answers conditional requests with 304 until the content changes', async () => {
    for (const path of [`/p/${panelId}`, `/p/${panelId}/feed.atom`, `/p/${panelId}/feed.rss`]) {
      const first = await raw(path);
      const etag = first.headers.etag!;
      assert.match(etag, /^W\/".+"$/);
      assert.match(first.headers['cache-control']!, /^public, max-age=\d+, stale-while-revalidate=\d+$/);
      assert.ok(first.headers['last-modified']);
      assert.equal((await raw(path, { 'if-none-match': etag })).status, 304);
      assert.equal((await raw(path, { 'if-none-match': `"other", ${etag}` })).status, 304);
      assert.equal((await raw(path, { 'if-modified-since': first.headers['last-modified']! })).status, 304);
      // If-None-Match wins over If-Modified-Since.
      const mismatch = await raw(path, {
        'if-none-match': '"other"',
        'if-modified-since': first.headers['last-modified']!,
      });
      assert.equal(mismatch.status, 200);
      const head = await raw(path, {}, 'HEAD');
      assert.equal(head.status, 200);
      assert.equal(head.body.length, 0);
      assert.equal(head.headers.etag, etag);
    }
  });

  it('sends brotli or gzip as the client accepts, prepared from the same bytes', async () => {
    const path = `/p/${panelId}/feed.atom`;
    const plain = await raw(path);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    const br = await raw(path, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    assert.ok(br.body.length < plain.body.length);
    const gz = await raw(path, { 'accept-encoding': 'br;q=0, gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gz.body), plain.body);
    assert.equal(Number(gz.headers['content-length']), gz.body.length);
    assert.equal((await raw(path, { 'accept-encoding': 'identity' })).headers['content-encoding'], undefined);
    assert.equal(br.headers.etag, plain.headers.etag);
  });

  it('shows a new, an edited and a deleted message at once', async () => {
    const before = await raw(`/p/${panelId}/feed.atom`);
    const added = await send('fresh news');
    const afterAdd = await raw(`/p/${panelId}/feed.atom`, { 'if-none-match': before.headers.etag! });
    assert.equal(afterAdd.status, 200);
    assert.ok(afterAdd.body.toString().includes('fresh news'));
    assert.ok((await text(`/p/${panelId}`)).includes('fresh news'));

    const firstId = (await atomEntries())[0]!;
    await new Promise((r) => setTimeout(r, 5));
    const edited = await api.request('PATCH', `/api/messages/${added.id}`, {
      token: owner.token,
      body: { content: 'corrected news' },
    });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    const [entry] = await atomEntries();
    assert.equal(entry!.id, firstId.id, 'an edit keeps the entry id');
    assert.ok(entry!.updated > firstId.updated, 'an edit moves <updated>');
    assert.equal(entry!.published, firstId.published);
    assert.ok(entry!.content['#text'].includes('corrected news'));
    assert.ok((await text(`/p/${panelId}`)).includes('(edited)'));

    const removed = await api.request('DELETE', `/api/messages/${added.id}`, { token: owner.token });
    assert.equal(removed.status, 204);
    assert.ok(!(await text(`/p/${panelId}/feed.atom`)).includes('corrected news'));
    assert.ok(!(await text(`/p/${panelId}`)).includes('corrected news'));
    const json = JSON.parse(await text(`/api/public/panels/${panelId}/messages`)) as Message[];
    assert.ok(!json.some((m) => m.id === added.id), 'deleted messages are left out of the JSON read');
  });

  it('pages older messages with ?before, in HTML and JSON, and refuses bad queries', async () => {
    const other = await api.user('pg');
    const g = (await api.request<Group>('POST', '/api/groups', { token: other.token, body: { name: 'Pages' } })).body;
    await api.request('PATCH', `/api/groups/${g.id}`, { token: other.token, body: { visibility: 'public' } });
    const p = g.panels[0]!;
    await api.request('PATCH', `/api/groups/${g.id}/panels/${p.id}`, { token: other.token, body: { webPublic: true } });
    for (let i = 1; i <= 60; i += 1)
      await api.request('POST', `/api/converses/${p.converseId}/messages`, {
        token: other.token,
        body: { content: `n${i}` },
      });

    const newest = await text(`/p/${p.id}`);
    assert.equal((newest.match(/<li id="m/g) ?? []).length, 50);
    assert.ok(newest.includes('<a rel="prev" href="?before=11">Older messages</a>'));
    const older = await text(`/p/${p.id}?before=11`);
    assert.equal((older.match(/<li id="m/g) ?? []).length, 10);
    assert.ok(!older.includes('Older messages'));
    assert.ok(older.includes(`<link rel="canonical" href="https://chat.example.org/p/${p.id}?before=11">`));

    const page = JSON.parse(await text(`/api/public/panels/${p.id}/messages?before=11&limit=5`)) as Message[];
    assert.deepEqual(
      page.map((m) => m.seq),
      [6, 7, 8, 9, 10],
    );
    const atom = parseXml(await text(`/p/${p.id}/feed.atom`)) as { feed: { entry: AtomEntry[] } };
    assert.equal(atom.feed.entry.length, 50);

    for (const bad of ['?before=abc', '?before=0', '?limit=5', '?before=3&x=1'])
      assert.equal((await raw(`/p/${p.id}${bad}`)).status, 400, bad);
    for (const bad of ['?limit=101', '?limit=0', '?before=-1'])
      assert.equal((await raw(`/api/public/panels/${p.id}/messages${bad}`)).status, 400, bad);
  });

  it('is a 404 for panels that are not web-public, unknown panels and malformed ids', async () => {
    const priv = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Closed' } }))
      .body;
    const closed = priv.panels[0]!.id;
    for (const path of [
      `/p/${closed}`,
      `/p/${closed}/feed.atom`,
      `/p/${closed}/feed.rss`,
      `/api/public/panels/${closed}/messages`,
      '/p/0123456789abcdef01234567',
      '/p/not-an-id',
      `/p/${panelId}/feed.json`,
    ])
      assert.equal((await raw(path)).status, 404, path);
    const page = await raw(`/p/${closed}`);
    assert.match(page.headers['content-type']!, /^text\/html/);
    assert.equal(page.headers['cache-control'], 'no-store');
  });
});
