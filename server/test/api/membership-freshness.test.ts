import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ConverseMembership, Group, Invite, Panel, Role } from '@im/protocol';
import { startApi, type ApiHarness } from './harness.ts';

/**
 * Every API write that changes who may read or post where is followed at once
 * by a fresh answer: each step first reads the answer (so it is cached), then
 * writes, then asks again. (The store's own drops are tested without events in
 * services/group/test/group-store.test.ts.)
 */
describe('membership answers after each write', () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url);
  });
  after(() => api.close());

  it('role change, custom role given and deleted, panel rule, private panel, ban', async () => {
    const owner = await api.user();
    const member = await api.user();
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Fresh' } }))
      .body;
    const { code } = (
      await api.request<Invite>('POST', `/api/groups/${group.id}/invites`, { token: owner.token, body: {} })
    ).body;
    assert.equal((await api.request('POST', `/api/invites/${code}/accept`, { token: member.token })).status, 200);
    const panel = group.panels[0]!;
    const ask = () =>
      api.broker.call<ConverseMembership | null, object>('group.converseMember', {
        converseId: panel.converseId,
        userId: member.id,
      });
    const ok = (res: { status: number }) => assert.ok(res.status < 300, `status ${res.status}`);

    assert.equal((await ask())?.role, 'member');
    ok(
      await api.request('PUT', `/api/groups/${group.id}/members/${member.id}/role`, {
        token: owner.token,
        body: { role: 'admin' },
      }),
    );
    assert.equal((await ask())?.role, 'admin');
    ok(
      await api.request('PUT', `/api/groups/${group.id}/members/${member.id}/role`, {
        token: owner.token,
        body: { role: 'member' },
      }),
    );
    assert.equal((await ask())?.role, 'member');

    const role = (
      await api.request<Role>('POST', `/api/groups/${group.id}/roles`, {
        token: owner.token,
        body: { name: 'mods', permissions: ['manageMessages'] },
      })
    ).body;
    assert.ok(!(await ask())?.permissions.includes('manageMessages'));
    ok(
      await api.request('PUT', `/api/groups/${group.id}/members/${member.id}/roles/${role.id}`, { token: owner.token }),
    );
    assert.ok((await ask())?.permissions.includes('manageMessages'), 'the role given is not seen');
    ok(await api.request('DELETE', `/api/groups/${group.id}/roles/${role.id}`, { token: owner.token }));
    assert.ok(!(await ask())?.permissions.includes('manageMessages'), 'the deleted role still counts');

    assert.equal((await ask())?.postingRole, 'member');
    ok(
      await api.request<Panel>('PATCH', `/api/groups/${group.id}/panels/${panel.id}`, {
        token: owner.token,
        body: { postingRole: 'admin' },
      }),
    );
    assert.equal((await ask())?.postingRole, 'admin');

    ok(
      await api.request<Panel>('PATCH', `/api/groups/${group.id}/panels/${panel.id}`, {
        token: owner.token,
        body: { private: true },
      }),
    );
    assert.equal(await ask(), null, 'a private panel still answers for someone not allowed');
    ok(
      await api.request<Panel>('PATCH', `/api/groups/${group.id}/panels/${panel.id}`, {
        token: owner.token,
        body: { private: false },
      }),
    );
    assert.equal((await ask())?.role, 'member');

    ok(await api.request('PUT', `/api/groups/${group.id}/bans/${member.id}`, { token: owner.token, body: {} }));
    assert.equal(await ask(), null, 'the banned member is still a member');
  });
});
