import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditPage, Message, Panel, UnreadEntry, UserGroup } from '@im/protocol';
import { connectClient, record, until } from '../realtime/client.ts';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';
import { eventually, groupWithMembers } from './harness.ts';

type Inbox = { items: Array<{ kind: string; messageId: string }> };

/** User groups (shared/API.md, "Notifications and personal organisation"): `@handle` mentions each member. */
describe('user groups', () => {
  const { api, ok, refused } = apiSuite(import.meta.url);

  const path = (groupId: string) => `/api/groups/${groupId}/user-groups`;
  const make = (groupId: string, by: User, body: object) => ok<UserGroup>('POST', path(groupId), by, body, 201);
  const send = (u: User, converseId: string, content: string) =>
    ok<Message>('POST', `/api/converses/${converseId}/messages`, u, { content }, 201);
  const mentionsOf = async (u: User, converseId: string) =>
    (await ok<UnreadEntry[]>('GET', '/api/unread', u)).find((e) => e.converseId === converseId)?.mentions ?? 0;

  it('are made, listed, edited and deleted by admins, listed by any member, and audited', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 3);
    const [a, b, c] = members as [User, User, User];
    const made = await make(groupId, owner, { handle: 'Devs', name: 'Developers', memberIds: [a.id, b.id] });
    assert.equal(made.handle, 'devs', 'a handle is kept lower-case');
    assert.deepEqual(made.memberIds, [a.id, b.id]);
    assert.deepEqual(await ok<UserGroup[]>('GET', path(groupId), c), [made]);

    const edited = await ok<UserGroup>('PATCH', `${path(groupId)}/${made.id}`, owner, {
      name: 'Developers!',
      memberIds: [b.id, c.id],
    });
    assert.equal(edited.name, 'Developers!');
    assert.deepEqual(edited.memberIds, [b.id, c.id]);

    // A plain member holds no mentionAll: they may not make, edit or delete one.
    await refused('POST', path(groupId), c, 403, 'IM_ERR_FORBIDDEN', { handle: 'ops', name: 'Ops', memberIds: [] });
    await refused('PATCH', `${path(groupId)}/${made.id}`, c, 403, 'IM_ERR_FORBIDDEN', { name: 'x' });
    await refused('DELETE', `${path(groupId)}/${made.id}`, c, 403, 'IM_ERR_FORBIDDEN');
    // An outsider does not see the group at all.
    const outsider = await api.user('ugout');
    await refused('GET', path(groupId), outsider, 404, 'IM_ERR_NOT_FOUND');

    await ok('DELETE', `${path(groupId)}/${made.id}`, owner, undefined, 204);
    assert.deepEqual(await ok<UserGroup[]>('GET', path(groupId), a), []);
    await refused('DELETE', `${path(groupId)}/${made.id}`, owner, 404, 'IM_ERR_NOT_FOUND');

    const audit = await ok<AuditPage>('GET', `/api/groups/${groupId}/audit`, owner);
    const actions = audit.items.map((e) => e.action).filter((x) => x.startsWith('usergroup.'));
    assert.deepEqual(actions, ['usergroup.delete', 'usergroup.update', 'usergroup.create']);
  });

  it('a holder of mentionAll who is no admin may make one', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 1);
    const [lead] = members as [User];
    const role = await ok<{ id: string }>(
      'POST',
      `/api/groups/${groupId}/roles`,
      owner,
      { name: 'leads', permissions: ['mentionAll'] },
      201,
    );
    await ok('PUT', `/api/groups/${groupId}/members/${lead.id}/roles/${role.id}`, owner);
    await make(groupId, lead, { handle: 'leads', name: 'Leads', memberIds: [lead.id] });
  });

  it('refuses bad handles, taken handles, reserved ones, usernames of members, and non-members', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 1);
    const [a] = members as [User];
    await make(groupId, owner, { handle: 'devs', name: 'Developers', memberIds: [a.id] });
    await refused('POST', path(groupId), owner, 409, 'IM_ERR_CONFLICT', {
      handle: 'DEVS',
      name: 'Again',
      memberIds: [],
    });
    for (const handle of ['a', 'has space', 'ends-', '-starts', 'x'.repeat(33), 'dévs'])
      await refused('POST', path(groupId), owner, 400, 'IM_ERR_VALIDATION', { handle, name: 'N', memberIds: [] });
    for (const handle of ['all', 'here', 'everyone'])
      await refused('POST', path(groupId), owner, 400, 'IM_ERR_VALIDATION', { handle, name: 'N', memberIds: [] });
    await refused('POST', path(groupId), owner, 409, 'IM_ERR_CONFLICT', {
      handle: a.username,
      name: 'Named like a member',
      memberIds: [],
    });
    const outsider = await api.user('ugnm');
    await refused('POST', path(groupId), owner, 404, 'IM_ERR_NOT_FOUND', {
      handle: 'mixed',
      name: 'Mixed',
      memberIds: [a.id, outsider.id],
    });
    await refused('POST', path(groupId), owner, 400, 'IM_ERR_VALIDATION', {
      handle: 'dupes',
      name: 'Dupes',
      memberIds: [a.id, a.id],
    });
    const other = await make(groupId, owner, { handle: 'ops', name: 'Ops', memberIds: [] });
    await refused('PATCH', `${path(groupId)}/${other.id}`, owner, 409, 'IM_ERR_CONFLICT', { handle: 'devs' });
    await refused('PATCH', `${path(groupId)}/${other.id}`, owner, 400, 'IM_ERR_VALIDATION', {});
  });

  it('@handle mentions each member who can read the converse, like a direct mention: unread and inbox', async () => {
    const { owner, members, groupId, converseId } = await groupWithMembers(api, 3);
    const [a, b, c] = members as [User, User, User];
    await make(groupId, owner, { handle: 'devs', name: 'Developers', memberIds: [a.id, b.id, c.id] });
    const plain = await send(c, converseId, 'no mention at all');
    assert.deepEqual(plain.mentions, []);
    const msg = await send(c, converseId, '@Devs look');
    assert.deepEqual([...msg.mentions].sort(), [a.id, b.id].sort(), 'the author is not mentioned by their own group');
    assert.equal(await mentionsOf(a, converseId), 1);
    assert.equal(await mentionsOf(b, converseId), 1);
    assert.equal(await mentionsOf(c, converseId), 0);
    assert.equal(await mentionsOf(owner, converseId), 0);
    // Named and through the group: one mention.
    const both = await send(owner, converseId, `@${a.username} and @devs`);
    assert.deepEqual([...both.mentions].sort(), [a.id, b.id, c.id].sort());
    assert.equal(await mentionsOf(a, converseId), 2);
    const items = await eventually(
      async () => (await ok<Inbox>('GET', '/api/notifications', b)).items,
      (i) => i.some((n) => n.messageId === msg.id),
    );
    assert.deepEqual(
      items.filter((n) => n.messageId === msg.id).map((n) => n.kind),
      ['mention'],
    );
    // An edit that drops the handle drops the mentions.
    const edited = await ok<Message>('PATCH', `/api/messages/${msg.id}`, c, { content: 'never mind' });
    assert.deepEqual(edited.mentions, []);
    assert.equal(await mentionsOf(b, converseId), 1, 'the message naming @devs as well still counts');
    const back = await ok<Message>('PATCH', `/api/messages/${msg.id}`, c, { content: 'ping @devs again' });
    assert.deepEqual([...back.mentions].sort(), [a.id, b.id].sort());
  });

  it('in a private panel only the members allowed there are mentioned', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 2);
    const [allowed, outside] = members as [User, User];
    await make(groupId, owner, { handle: 'team', name: 'Team', memberIds: [allowed.id, outside.id] });
    const panel = await ok<Panel>(
      'POST',
      `/api/groups/${groupId}/panels`,
      owner,
      { name: 'secret', type: 'text', private: true, allowUserIds: [allowed.id] },
      201,
    );
    const msg = await send(owner, panel.converseId, 'hi @team');
    assert.deepEqual(msg.mentions, [allowed.id]);
  });

  it('someone who leaves, is kicked or banned is taken off, and the group hears of each change', async () => {
    const { owner, members, groupId, converseId } = await groupWithMembers(api, 4);
    const [leaver, kicked, banned, stays] = members as [User, User, User, User];
    const socket = await connectClient(api.base, stays.token);
    try {
      const updates = record(socket, 'usergroups:updated');
      const ug = await make(groupId, owner, {
        handle: 'crew',
        name: 'Crew',
        memberIds: [leaver.id, kicked.id, banned.id, stays.id],
      });
      await until('the new user group to be announced', () => updates.some((u) => u.userGroups.length === 1));
      assert.equal(updates.at(-1)!.groupId, groupId);
      // The handle table is cached: a send reads it before the members leave.
      assert.equal((await send(owner, converseId, '@crew one')).mentions.length, 4);

      await ok('DELETE', `/api/groups/${groupId}/members/${leaver.id}`, leaver, undefined, 204);
      await ok('DELETE', `/api/groups/${groupId}/members/${kicked.id}`, owner, undefined, 204);
      await ok('PUT', `/api/groups/${groupId}/bans/${banned.id}`, owner, {}, 204);
      const [now] = await ok<UserGroup[]>('GET', path(groupId), stays);
      assert.deepEqual(now!.memberIds, [stays.id]);
      await until('the removals to be announced', () => updates.some((u) => u.userGroups[0]?.memberIds.length === 1));
      assert.deepEqual((await send(owner, converseId, '@crew two')).mentions, [stays.id]);
      assert.equal(ug.id, now!.id);
    } finally {
      socket.disconnect();
    }
  });

  it('a handle in a DM or of another group mentions nobody', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 1);
    const [a] = members as [User];
    await make(groupId, owner, { handle: 'devs', name: 'Developers', memberIds: [a.id] });
    const other = await groupWithMembers(api, 0);
    assert.deepEqual((await send(other.owner, other.converseId, '@devs?')).mentions, []);
    const dm = await ok<{ id: string }>('POST', '/api/dms', owner, { userId: a.id });
    assert.deepEqual((await send(owner, dm.id, '@devs?')).mentions, []);
  });
});
