import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DirectoryPage, FeedToken, Group, Invite, Message, Panel } from '@im/protocol';
import { apiSuite } from '../support/api-suite.ts';

/**
 * Public groups: the directory, joining without an invite, the rules of
 * visibility and web-public panels, and personal feed tokens, against the
 * single instance and real servers.
 */
describe('public groups, the directory, joining, personal feed tokens', () => {
  const { api, ok, refused } = apiSuite(import.meta.url);

  const plain = (path: string) => fetch(api.base + path);

  it('lists only public groups, largest first, by name, page by page', async () => {
    const owner = await api.user('dir');
    const tag = `zq${process.pid}`;
    const made: Group[] = [];
    for (const size of [1, 3, 2, 3]) {
      const group = await ok<Group>('POST', '/api/groups', owner, { name: `${tag} Guild ${made.length}` }, 201);
      await ok('PATCH', `/api/groups/${group.id}`, owner, { visibility: 'public', description: `About ${size}` });
      for (let i = 1; i < size; i += 1) await ok('POST', `/api/groups/${group.id}/join`, await api.user('j'));
      made.push(group);
    }
    const hidden = await ok<Group>('POST', '/api/groups', owner, { name: `${tag} Hidden` }, 201);
    assert.equal(hidden.visibility, 'private');

    const seen: DirectoryPage['items'] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/api/directory?q=${tag.toUpperCase()}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page: DirectoryPage = await ok<DirectoryPage>('GET', query, owner);
      assert.ok(page.items.length <= 2);
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(
      seen.map((g) => g.memberCount),
      [3, 3, 2, 1],
    );
    // Ties keep a stable order, and nothing is listed twice across pages.
    assert.equal(new Set(seen.map((g) => g.id)).size, 4);
    assert.ok(!seen.some((g) => g.id === hidden.id));
    assert.equal(seen.find((g) => g.id === made[0]!.id)?.description, 'About 1');

    const one = await ok<DirectoryPage>('GET', `/api/directory?q=${tag} guild 2`, owner);
    assert.deepEqual(
      one.items.map((g) => g.id),
      [made[2]!.id],
    );
    // The query is literal text, not a pattern.
    assert.equal((await ok<DirectoryPage>('GET', `/api/directory?q=${tag}.*`, owner)).items.length, 0);
    await refused('GET', '/api/directory?cursor=nonsense', owner, 400, 'IM_ERR_VALIDATION');
    await refused('GET', '/api/directory?limit=101', owner, 400, 'IM_ERR_VALIDATION');
    assert.equal((await plain('/api/directory')).status, 401);
  });

  it('joins a public group without an invite; private groups are 404, bans 403', async () => {
    const [owner, joiner, outcast] = [await api.user('own'), await api.user('joi'), await api.user('out')];
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Open house' }, 201);
    await refused('POST', `/api/groups/${group.id}/join`, joiner, 404, 'IM_ERR_NOT_FOUND');

    const updated = await ok<Group>('PATCH', `/api/groups/${group.id}`, owner, { visibility: 'public' });
    assert.equal(updated.visibility, 'public');
    const joined = await ok<Group>('POST', `/api/groups/${group.id}/join`, joiner);
    assert.equal(joined.myRole, 'member');
    assert.equal(joined.memberCount, 2);
    // Joining again changes nothing.
    assert.equal((await ok<Group>('POST', `/api/groups/${group.id}/join`, joiner)).memberCount, 2);
    const converseId = group.panels[0]!.converseId;
    await ok('POST', `/api/converses/${converseId}/messages`, joiner, { content: 'hello' }, 201);

    // A ban still refuses a public group's direct join.
    const invite = await ok<Invite>('POST', `/api/groups/${group.id}/invites`, owner, {}, 201);
    await ok('POST', `/api/invites/${invite.code}/accept`, outcast);
    await ok('PUT', `/api/groups/${group.id}/bans/${outcast.id}`, owner, {}, 204);
    await refused('POST', `/api/groups/${group.id}/join`, outcast, 403, 'IM_ERR_BANNED');
    assert.equal((await ok<Group>('GET', `/api/groups/${group.id}`, owner)).memberCount, 2);

    await refused('POST', '/api/groups/0123456789abcdef01234567/join', joiner, 404, 'IM_ERR_NOT_FOUND');
    await refused('POST', '/api/groups/nope/join', joiner, 400, 'IM_ERR_VALIDATION');
  });

  it('lets only admins change visibility and description, and checks them', async () => {
    const [owner, member] = [await api.user('own'), await api.user('mem')];
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Rules' }, 201);
    await ok('PATCH', `/api/groups/${group.id}`, owner, { visibility: 'public' });
    await ok('POST', `/api/groups/${group.id}/join`, member);
    await refused('PATCH', `/api/groups/${group.id}`, member, 403, 'IM_ERR_FORBIDDEN', { visibility: 'private' });
    await refused('PATCH', `/api/groups/${group.id}`, owner, 400, 'IM_ERR_VALIDATION', { visibility: 'secret' });
    await refused('PATCH', `/api/groups/${group.id}`, owner, 400, 'IM_ERR_VALIDATION', {
      description: 'x'.repeat(501),
    });
    const described = await ok<Group>('PATCH', `/api/groups/${group.id}`, owner, { description: '  A place  ' });
    assert.equal(described.description, 'A place');
    const cleared = await ok<Group>('PATCH', `/api/groups/${group.id}`, owner, { description: '' });
    assert.equal(cleared.description, undefined);
    assert.equal(cleared.visibility, 'public');
  });

  it('allows web-public panels only in public groups, and going private closes them', async () => {
    const [owner, member] = [await api.user('own'), await api.user('mem')];
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Panels' }, 201);
    const panel = group.panels[0]!;
    assert.equal(panel.webPublic, false);
    const path = `/api/groups/${group.id}/panels/${panel.id}`;
    await refused('PATCH', path, owner, 409, 'IM_ERR_CONFLICT', { webPublic: true });
    await ok('PATCH', `/api/groups/${group.id}`, owner, { visibility: 'public' });
    await ok('POST', `/api/groups/${group.id}/join`, member);
    await refused('PATCH', path, member, 403, 'IM_ERR_FORBIDDEN', { webPublic: true });
    await refused('PATCH', path, owner, 400, 'IM_ERR_VALIDATION', { webPublic: 'yes' });
    assert.equal((await ok<Panel>('PATCH', path, owner, { webPublic: true })).webPublic, true);
    assert.equal((await plain(`/p/${panel.id}`)).status, 200);

    const closed = await ok<Group>('PATCH', `/api/groups/${group.id}`, owner, { visibility: 'private' });
    assert.equal(closed.panels[0]!.webPublic, false);
    assert.equal((await plain(`/p/${panel.id}`)).status, 404);
    // Public again: the panel stays closed until an admin opens it again.
    await ok('PATCH', `/api/groups/${group.id}`, owner, { visibility: 'public' });
    assert.equal((await plain(`/p/${panel.id}`)).status, 404);
  });

  it('gives one personal feed token at a time, for converses its owner is in', async () => {
    const [alice, bob, eve] = [await api.user('ali'), await api.user('bob'), await api.user('eve')];
    const group = await ok<Group>('POST', '/api/groups', alice, { name: 'Private room' }, 201);
    const converseId = group.panels[0]!.converseId;
    const secretMessage = await ok<Message>(
      'POST',
      `/api/converses/${converseId}/messages`,
      alice,
      { content: 'for members <b>only</b>' },
      201,
    );
    const dm = await ok<{ id: string }>('POST', '/api/dms', alice, { userId: bob.id });
    await ok<Message>('POST', `/api/converses/${dm.id}/messages`, bob, { content: 'psst' }, 201);

    const first = await ok<FeedToken>('POST', '/api/feeds/token', alice);
    assert.match(first.token, /^[A-Za-z0-9_-]{43}$/);
    const feed = await plain(`/feeds/${first.token}/converses/${converseId}.atom`);
    assert.equal(feed.status, 200);
    assert.match(feed.headers.get('content-type') ?? '', /^application\/atom\+xml/);
    assert.match(feed.headers.get('cache-control') ?? '', /^private/);
    const xml = await feed.text();
    assert.ok(xml.includes('for members &lt;b&gt;only&lt;/b&gt;') || xml.includes('&amp;lt;b&amp;gt;'), xml);
    assert.ok(!xml.includes(first.token), 'the feed never repeats its secret address');
    // Each entry links to the message's permalink in the app.
    assert.ok(xml.includes(`/c/${converseId}?message=${secretMessage.id}"`), xml);
    const dmFeed = await plain(`/feeds/${first.token}/converses/${dm.id}.atom`);
    assert.equal(dmFeed.status, 200);
    assert.ok((await dmFeed.text()).includes('psst'));

    // Not a member: 404, whether the token is someone else's or made up.
    const eves = await ok<FeedToken>('POST', '/api/feeds/token', eve);
    assert.equal((await plain(`/feeds/${eves.token}/converses/${converseId}.atom`)).status, 404);
    assert.equal((await plain(`/feeds/${'A'.repeat(43)}/converses/${converseId}.atom`)).status, 404);
    assert.equal((await plain(`/feeds/${first.token}/converses/${converseId}.rss`)).status, 404);

    // A new token revokes the old one at once.
    const second = await ok<FeedToken>('POST', '/api/feeds/token', alice);
    assert.notEqual(second.token, first.token);
    assert.equal((await plain(`/feeds/${first.token}/converses/${converseId}.atom`)).status, 404);
    assert.equal((await plain(`/feeds/${second.token}/converses/${converseId}.atom`)).status, 200);

    // Leaving the group ends the feed of it.
    const other = await ok<Group>('POST', '/api/groups', bob, { name: 'Bob room' }, 201);
    const invite = await ok<Invite>('POST', `/api/groups/${other.id}/invites`, bob, {}, 201);
    await ok('POST', `/api/invites/${invite.code}/accept`, alice);
    const otherConverse = other.panels[0]!.converseId;
    assert.equal((await plain(`/feeds/${second.token}/converses/${otherConverse}.atom`)).status, 200);
    await ok('DELETE', `/api/groups/${other.id}/members/${alice.id}`, alice, undefined, 204);
    assert.equal((await plain(`/feeds/${second.token}/converses/${otherConverse}.atom`)).status, 404);

    assert.equal((await plain('/api/feeds/token')).status, 405);
    assert.equal((await fetch(`${api.base}/api/feeds/token`, { method: 'POST' })).status, 401);
  });
});
