import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Group } from '@im/protocol';
import { apiSuite } from '../support/api-suite.ts';

type Err = { error: { code: string } };

/**
 * Groups, panels and profile changes cost the server (documents, room
 * index entries, an announcement to every group of the user): each is
 * counted per user with the rate-limit table's defaults.
 */
describe('creation limits (defaults of the rate-limit table)', () => {
  const { api } = apiSuite(import.meta.url, { RATE_LIMIT: 'on' });

  it('20 groups per user per hour; the 21st is 429 and nothing is made; others still create', async () => {
    const spammer = await api.user('grp');
    const create = (u: { token: string }, name: string) =>
      api.request<Group | Err>('POST', '/api/groups', { token: u.token, body: { name } });
    for (let i = 0; i < 20; i += 1) assert.equal((await create(spammer, `g${i}`)).status, 201);
    const refused = await create(spammer, 'one too many');
    assert.equal(refused.status, 429);
    assert.equal((refused.body as Err).error.code, 'IM_ERR_RATE_LIMITED');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    const mine = await api.request<Group[]>('GET', '/api/groups', { token: spammer.token });
    assert.equal(mine.body.length, 20);

    const someoneElse = await api.user('grp');
    assert.equal((await create(someoneElse, 'mine')).status, 201);
  });

  it('60 panels per user per hour', async () => {
    const admin = await api.user('pan');
    const group = (await api.request<Group>('POST', '/api/groups', { token: admin.token, body: { name: 'Panels' } }))
      .body;
    const createPanel = (i: number) =>
      api.request<Err>('POST', `/api/groups/${group.id}/panels`, {
        token: admin.token,
        body: { name: `p${i}`, type: 'text' },
      });
    for (let i = 0; i < 60; i += 1) assert.equal((await createPanel(i)).status, 201);
    const refused = await createPanel(60);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'IM_ERR_RATE_LIMITED');
    const after = await api.request<Group>('GET', `/api/groups/${group.id}`, { token: admin.token });
    assert.equal(after.body.panels.length, 61, 'general and the 60 made');
  });

  it('30 profile changes per user per 10 minutes', async () => {
    const user = await api.user('pro');
    const rename = (i: number) =>
      api.request<Err>('PATCH', '/api/users/me', { token: user.token, body: { nickname: `name ${i}` } });
    for (let i = 0; i < 30; i += 1) assert.equal((await rename(i)).status, 200);
    const refused = await rename(30);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'IM_ERR_RATE_LIMITED');
    const me = await api.request<{ nickname: string }>('GET', '/api/users/me', { token: user.token });
    assert.equal(me.body.nickname, 'name 29');
  });
});
