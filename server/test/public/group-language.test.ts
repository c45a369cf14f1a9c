import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { DirectoryPage, FeedToken, Group, Message } from '@im/protocol';
import { apiSuite } from '../support/api-suite.ts';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });

function parseXml(text: string): Record<string, Record<string, unknown>> {
  assert.equal(XMLValidator.validate(text), true, text);
  return xml.parse(text) as Record<string, Record<string, unknown>>;
}

/**
 * A group's language: set by its owner and admins only, validated, in the
 * group's answers and the directory, and followed by its public page and
 * feeds (their texts, dates, `lang`, `xml:lang` and `<language>`).
 */
describe("a group's language, and its public pages and feeds", () => {
  const { api, ok, refused } = apiSuite(import.meta.url);
  const plain = async (path: string) => {
    const res = await fetch(api.base + path);
    assert.equal(res.status, 200, path);
    return res.text();
  };

  it('is English by default, set by owner and admins only, and only to a language the app speaks', async () => {
    const [owner, admin, member, stranger] = [
      await api.user('own'),
      await api.user('adm'),
      await api.user('mem'),
      await api.user('str'),
    ];
    const group = await ok<Group>('POST', '/api/groups', owner, { name: `Sprachen ${process.pid}` }, 201);
    assert.equal(group.language, 'en');
    await ok('PATCH', `/api/groups/${group.id}`, owner, { visibility: 'public' });
    await ok('POST', `/api/groups/${group.id}/join`, admin);
    await ok('POST', `/api/groups/${group.id}/join`, member);
    await ok('PUT', `/api/groups/${group.id}/members/${admin.id}/role`, owner, { role: 'admin' });

    const german = await ok<Group>('PATCH', `/api/groups/${group.id}`, owner, { language: 'de' });
    assert.equal(german.language, 'de');
    assert.equal(german.visibility, 'public', 'other fields stay as they were');
    assert.equal((await ok<Group>('GET', `/api/groups/${group.id}`, member)).language, 'de');
    const listed = await ok<DirectoryPage>('GET', `/api/directory?q=Sprachen ${process.pid}`, stranger);
    assert.equal(listed.items[0]?.language, 'de');

    assert.equal((await ok<Group>('PATCH', `/api/groups/${group.id}`, admin, { language: 'zh' })).language, 'zh');
    await refused('PATCH', `/api/groups/${group.id}`, member, 403, 'IM_ERR_FORBIDDEN', { language: 'en' });
    await refused('PATCH', `/api/groups/${group.id}`, stranger, 404, 'IM_ERR_NOT_FOUND', { language: 'en' });
    for (const language of ['fr', 'DE', '', 'zh-Hans', 3])
      await refused('PATCH', `/api/groups/${group.id}`, owner, 400, 'IM_ERR_VALIDATION', { language });
    assert.equal((await ok<Group>('GET', `/api/groups/${group.id}`, owner)).language, 'zh');
  });

  it("writes the public page and its feeds in the group's language, and changes them at once", async () => {
    const owner = await api.user('pub');
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Stammtisch' }, 201);
    const panel = group.panels[0]!;
    await ok('PATCH', `/api/groups/${group.id}`, owner, { visibility: 'public', language: 'de' });
    await ok('PATCH', `/api/groups/${group.id}/panels/${panel.id}`, owner, { webPublic: true });
    const sent = await ok<Message>(
      'POST',
      `/api/converses/${panel.converseId}/messages`,
      owner,
      { content: 'Hallo zusammen' },
      201,
    );
    await ok('PATCH', `/api/messages/${sent.id}`, owner, { content: 'Hallo zusammen!' });

    const page = await plain(`/p/${panel.id}`);
    assert.match(page, /<html lang="de">/);
    assert.ok(page.includes('>An der Unterhaltung teilnehmen</a>'), page);
    assert.ok(page.includes('(bearbeitet)'));
    assert.ok(page.includes('Atom-Feed'));
    // The date as German writes it (Intl), e.g. "28. Nov. 2026 14:03 UTC".
    const day = new Date(sent.createdAt).getUTCDate();
    assert.match(page, new RegExp(`>${day}\\. [A-Z][a-zä]+\\.? \\d{4} \\d{2}:\\d{2} UTC</time>`));

    const atom = parseXml(await plain(`/p/${panel.id}/feed.atom`));
    assert.equal(atom.feed!['@xml:lang'], 'de');
    const rss = parseXml(await plain(`/p/${panel.id}/feed.rss`)) as { rss: { channel: { language: string } } };
    assert.equal(rss.rss.channel.language, 'de');

    // Pages and feeds are kept rendered: a new language shows on the next read.
    await ok('PATCH', `/api/groups/${group.id}`, owner, { language: 'zh' });
    const chinese = await plain(`/p/${panel.id}`);
    assert.match(chinese, /<html lang="zh-Hans">/);
    assert.ok(chinese.includes('>加入对话</a>'), chinese);
    assert.equal(parseXml(await plain(`/p/${panel.id}/feed.atom`)).feed!['@xml:lang'], 'zh-Hans');

    const token = await ok<FeedToken>('POST', '/api/feeds/token', owner);
    const personal = parseXml(await plain(`/feeds/${token.token}/converses/${panel.converseId}.atom`));
    assert.equal(personal.feed!['@xml:lang'], 'zh-Hans');

    // A direct message has no group: its feed is English, its title names both people.
    const other = await api.user('dm');
    const dm = await ok<{ id: string }>('POST', '/api/dms', owner, { userId: other.id });
    await ok('POST', `/api/converses/${dm.id}/messages`, other, { content: 'hi' }, 201);
    const dmFeed = parseXml(await plain(`/feeds/${token.token}/converses/${dm.id}.atom`));
    assert.equal(dmFeed.feed!['@xml:lang'], 'en');
    assert.match(String(dmFeed.feed!.title), /^Direct messages: .+ and .+$/);
  });
});
