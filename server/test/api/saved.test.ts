import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message, Panel, SavedPage } from '@im/protocol';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';
import { groupWithMembers } from './harness.ts';

/** Saved messages (shared/API.md, "Notifications and personal organisation"). */
describe('saved messages', () => {
  const { api, ok, refused } = apiSuite(import.meta.url);

  const send = (user: User, converseId: string, content: string) =>
    ok<Message>('POST', `/api/converses/${converseId}/messages`, user, { content }, 201);
  const save = (user: User, id: string) => ok('PUT', `/api/messages/${id}/saved`, user, undefined, 204);
  const saved = (user: User, query = '') => ok<SavedPage>('GET', `/api/saved${query}`, user);
  const ids = (page: SavedPage) => page.items.map((m) => m.id);

  it('PUT and DELETE are idempotent 204s; a message I cannot read is 404', async () => {
    const { owner, converseId } = await groupWithMembers(api, 0);
    const outsider = await api.user('out');
    const m = await send(owner, converseId, 'keep this');
    await save(owner, m.id);
    await save(owner, m.id);
    const page = await saved(owner);
    assert.deepEqual(ids(page), [m.id]);
    assert.equal(page.items[0]!.content, 'keep this');
    assert.ok(!Number.isNaN(Date.parse(page.items[0]!.savedAt)));
    assert.equal(page.nextCursor, null);
    await refused('PUT', `/api/messages/${m.id}/saved`, outsider, 404, 'IM_ERR_NOT_FOUND');
    await refused('DELETE', `/api/messages/${m.id}/saved`, outsider, 404, 'IM_ERR_NOT_FOUND');
    await refused('PUT', `/api/messages/${'0'.repeat(24)}/saved`, owner, 404, 'IM_ERR_NOT_FOUND');
    await refused('GET', '/api/saved?cursor=nope', owner, 400, 'IM_ERR_VALIDATION');
    assert.deepEqual(ids(await saved(outsider)), []);
    await ok('DELETE', `/api/messages/${m.id}/saved`, owner, undefined, 204);
    await ok('DELETE', `/api/messages/${m.id}/saved`, owner, undefined, 204);
    assert.deepEqual(ids(await saved(owner)), []);
  });

  it('pages newest saved first by cursor', async () => {
    const { owner, converseId } = await groupWithMembers(api, 0);
    const sent: Message[] = [];
    for (let i = 0; i < 5; i += 1) sent.push(await send(owner, converseId, `m${i}`));
    // Saved in another order than sent: the listing follows when they were saved.
    for (const i of [2, 0, 4, 1, 3]) await save(owner, sent[i]!.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 5; pages += 1) {
      const page: SavedPage = await saved(owner, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...ids(page));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    assert.deepEqual(
      seen,
      [3, 1, 4, 0, 2].map((i) => sent[i]!.id),
    );
  });

  it('leaves out deleted messages, groups I left and private panels I lost', async () => {
    const { owner, members, groupId, converseId } = await groupWithMembers(api, 1);
    const [bob] = members as [User];
    const panel = await ok<Panel>(
      'POST',
      `/api/groups/${groupId}/panels`,
      owner,
      { name: 'inner', type: 'text', private: true, allowUserIds: [bob.id] },
      201,
    );
    const general = await send(owner, converseId, 'general');
    const gone = await send(owner, converseId, 'soon deleted');
    const inner = await send(owner, panel.converseId, 'inner');
    for (const m of [general, gone, inner]) await save(bob, m.id);
    assert.deepEqual(ids(await saved(bob)), [inner.id, gone.id, general.id]);

    await ok('DELETE', `/api/messages/${gone.id}`, owner, undefined, 204);
    assert.deepEqual(ids(await saved(bob)), [inner.id, general.id]);

    await ok('PATCH', `/api/groups/${groupId}/panels/${panel.id}`, owner, { allowUserIds: [] });
    assert.deepEqual(ids(await saved(bob)), [general.id]);
    // Nor can he save it again: it is 404 to him now.
    await refused('PUT', `/api/messages/${inner.id}/saved`, bob, 404, 'IM_ERR_NOT_FOUND');

    await ok('DELETE', `/api/groups/${groupId}/members/${bob.id}`, bob, undefined, 204);
    assert.deepEqual(ids(await saved(bob)), []);
  });
});
