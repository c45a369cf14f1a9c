import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Group, Member, Message, Panel, Role } from '@im/protocol';
import { connectClient, record, until } from '../realtime/client.ts';
import { apiSuite } from '../support/api-suite.ts';
import { groupWithMembers } from './harness.ts';

/** Roles and private panels (shared/API.md, "Roles and private panels"): the group service's side. */
describe('roles and private panels', () => {
  const { api, ok, refused } = apiSuite(import.meta.url);

  const roles = (groupId: string, user: { token: string }) => ok<Role[]>('GET', `/api/groups/${groupId}/roles`, user);

  it('roles are made, listed after @everyone by position, edited, moved and deleted', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 1);
    const [member] = members as [(typeof members)[number]];
    const initial = await roles(groupId, member);
    assert.deepEqual(initial, [{ id: groupId, name: '@everyone', permissions: ['createInvites'], position: 0 }]);

    const mods = await ok<Role>(
      'POST',
      `/api/groups/${groupId}/roles`,
      owner,
      { name: 'Mods', color: '#FF8800', permissions: ['kickMembers', 'pinMessages'] },
      201,
    );
    assert.deepEqual(mods, {
      id: mods.id,
      name: 'Mods',
      color: '#ff8800',
      permissions: ['kickMembers', 'pinMessages'],
      position: 1,
    });
    const vip = await ok<Role>('POST', `/api/groups/${groupId}/roles`, owner, { name: 'VIP', permissions: [] }, 201);
    // A new role goes lowest.
    assert.deepEqual(
      (await roles(groupId, member)).map((r) => [r.name, r.position]),
      [
        ['@everyone', 0],
        ['VIP', 1],
        ['Mods', 2],
      ],
    );
    const moved = await ok<Role>('PATCH', `/api/groups/${groupId}/roles/${vip.id}`, owner, {
      position: 2,
      color: '#00aa00',
    });
    assert.equal(moved.position, 2);
    assert.equal(moved.color, '#00aa00');
    assert.deepEqual(
      (await roles(groupId, member)).map((r) => r.name),
      ['@everyone', 'Mods', 'VIP'],
    );
    await ok('PATCH', `/api/groups/${groupId}/roles/${groupId}`, owner, {
      permissions: ['createInvites', 'mentionAll'],
    });
    assert.deepEqual((await roles(groupId, member))[0]!.permissions, ['createInvites', 'mentionAll']);
    await refused('PATCH', `/api/groups/${groupId}/roles/${groupId}`, owner, 400, 'IM_ERR_VALIDATION', { name: 'x' });
    await refused('DELETE', `/api/groups/${groupId}/roles/${groupId}`, owner, 400, 'IM_ERR_VALIDATION');
    await refused('POST', `/api/groups/${groupId}/roles`, owner, 400, 'IM_ERR_VALIDATION', {
      name: 'Bad',
      permissions: ['flyToTheMoon'],
    });
    await refused('POST', `/api/groups/${groupId}/roles`, member, 403, 'IM_ERR_FORBIDDEN', {
      name: 'Mine',
      permissions: [],
    });
    await ok('DELETE', `/api/groups/${groupId}/roles/${vip.id}`, owner, undefined, 204);
    await refused('DELETE', `/api/groups/${groupId}/roles/${vip.id}`, owner, 404, 'IM_ERR_NOT_FOUND');
    assert.deepEqual(
      (await roles(groupId, member)).map((r) => [r.name, r.position]),
      [
        ['@everyone', 0],
        ['Mods', 1],
      ],
    );
    const outsider = await api.user('out');
    await refused('GET', `/api/groups/${groupId}/roles`, outsider, 404, 'IM_ERR_NOT_FOUND');
  });

  it('a role given shows on the member and in their permissions, live; taking it takes them away', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 2);
    const [holder, other] = members as [(typeof members)[number], (typeof members)[number]];
    const mods = await ok<Role>(
      'POST',
      `/api/groups/${groupId}/roles`,
      owner,
      { name: 'Mods', permissions: ['kickMembers'] },
      201,
    );
    const socket = await connectClient(api.base, other.token);
    try {
      const updates = record(socket, 'member:updated');
      const given = await ok<Member>('PUT', `/api/groups/${groupId}/members/${holder.id}/roles/${mods.id}`, owner);
      assert.deepEqual(given.roleIds, [mods.id]);
      await until('the role to be announced', () =>
        updates.some((u) => u.userId === holder.id && u.roleIds.includes(mods.id)),
      );
    } finally {
      socket.disconnect();
    }
    const seen = await ok<Group>('GET', `/api/groups/${groupId}`, holder);
    assert.deepEqual(seen.myRoleIds, [mods.id]);
    assert.deepEqual(seen.myPermissions, ['kickMembers', 'createInvites']);
    const owners = await ok<Group>('GET', `/api/groups/${groupId}`, owner);
    assert.equal(owners.myPermissions.length, 12);

    await ok('DELETE', `/api/groups/${groupId}/members/${holder.id}/roles/${mods.id}`, owner, undefined, 204);
    assert.deepEqual((await ok<Group>('GET', `/api/groups/${groupId}`, holder)).myRoleIds, []);
    await refused(
      'PUT',
      `/api/groups/${groupId}/members/${holder.id}/roles/${groupId}`,
      owner,
      404,
      'IM_ERR_NOT_FOUND',
    );
    await refused(
      'PUT',
      `/api/groups/${groupId}/members/${owner.id}/roles/${mods.id}`,
      holder,
      403,
      'IM_ERR_FORBIDDEN',
    );
  });

  it('holders of manageRoles cannot raise themselves: roles at or above their own and permissions they lack are refused', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 2);
    const [manager, plain] = members as [(typeof members)[number], (typeof members)[number]];
    const low = await ok<Role>('POST', `/api/groups/${groupId}/roles`, owner, { name: 'Low', permissions: [] }, 201);
    const managers = await ok<Role>(
      'POST',
      `/api/groups/${groupId}/roles`,
      owner,
      { name: 'Managers', permissions: ['manageRoles'] },
      201,
    );
    await ok('PATCH', `/api/groups/${groupId}/roles/${managers.id}`, owner, { position: 2 });
    await ok('PUT', `/api/groups/${groupId}/members/${manager.id}/roles/${managers.id}`, owner);

    // Below their own role: allowed.
    await ok('PUT', `/api/groups/${groupId}/members/${plain.id}/roles/${low.id}`, manager);
    // Their own role (or one above): refused.
    await refused(
      'PUT',
      `/api/groups/${groupId}/members/${plain.id}/roles/${managers.id}`,
      manager,
      403,
      'IM_ERR_FORBIDDEN',
    );
    await refused('PATCH', `/api/groups/${groupId}/roles/${managers.id}`, manager, 403, 'IM_ERR_FORBIDDEN', {
      permissions: ['manageRoles', 'banMembers'],
    });
    // A permission they do not hold cannot be given to any role.
    const refusal = await refused('PATCH', `/api/groups/${groupId}/roles/${low.id}`, manager, 403, 'IM_ERR_FORBIDDEN', {
      permissions: ['banMembers'],
    });
    assert.match(refusal.error.message, /banMembers/);
    await refused('POST', `/api/groups/${groupId}/roles`, manager, 403, 'IM_ERR_FORBIDDEN', {
      name: 'Sneaky',
      permissions: ['manageGroup'],
    });
    await refused('PATCH', `/api/groups/${groupId}/roles/${low.id}`, manager, 403, 'IM_ERR_FORBIDDEN', { position: 2 });
    const made = await ok<Role>(
      'POST',
      `/api/groups/${groupId}/roles`,
      manager,
      { name: 'Fine', permissions: ['manageRoles'] },
      201,
    );
    assert.equal(made.position, 1);
  });

  it('a private panel is absent for members not allowed, 404 on direct requests, and appears and disappears live', async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 2);
    const [allowed, outsider] = members as [(typeof members)[number], (typeof members)[number]];
    const staff = await ok<Role>(
      'POST',
      `/api/groups/${groupId}/roles`,
      owner,
      { name: 'Staff', permissions: [] },
      201,
    );
    await ok('PUT', `/api/groups/${groupId}/members/${allowed.id}/roles/${staff.id}`, owner);
    const panel = await ok<Panel>(
      'POST',
      `/api/groups/${groupId}/panels`,
      owner,
      { name: 'staff-room', type: 'text', topic: 'Staff only' },
      201,
    );
    assert.equal(panel.topic, 'Staff only');
    assert.equal(panel.private, false);

    const [allowedSocket, outsiderSocket] = await Promise.all([
      connectClient(api.base, allowed.token),
      connectClient(api.base, outsider.token),
    ]);
    try {
      const gone = record(outsiderSocket, 'panel:deleted');
      const outsiderMessages = record(outsiderSocket, 'message:new');
      const allowedMessages = record(allowedSocket, 'message:new');
      const allowedUpdates = record(allowedSocket, 'panel:updated');
      const made = await ok<Panel>('PATCH', `/api/groups/${groupId}/panels/${panel.id}`, owner, {
        private: true,
        allowRoleIds: [staff.id],
      });
      assert.equal(made.private, true);
      assert.deepEqual(made.allowRoleIds, [staff.id]);
      await until('the panel to leave the outsider', () => gone.some((e) => e.panelId === panel.id));
      await until('the allowed member to see the change', () => allowedUpdates.some((e) => e.panel.private));

      const sent = await ok<Message>(
        'POST',
        `/api/converses/${panel.converseId}/messages`,
        allowed,
        { content: 'for staff' },
        201,
      );
      await until('the allowed member to get the message', () => allowedMessages.some((m) => m.id === sent.id));
      // A message after it, in a panel both see: once it arrives, the private one would have too.
      const general = (await ok<Group>('GET', `/api/groups/${groupId}`, owner)).panels[0]!;
      const marker = await ok<Message>(
        'POST',
        `/api/converses/${general.converseId}/messages`,
        owner,
        { content: 'marker' },
        201,
      );
      await until('the marker', () => outsiderMessages.some((m) => m.id === marker.id));
      assert.equal(
        outsiderMessages.some((m) => m.id === sent.id),
        false,
      );
    } finally {
      allowedSocket.disconnect();
      outsiderSocket.disconnect();
    }

    const outsiderView = await ok<Group>('GET', `/api/groups/${groupId}`, outsider);
    assert.equal(
      outsiderView.panels.some((p) => p.id === panel.id),
      false,
    );
    const listed = await ok<Group[]>('GET', '/api/groups', outsider);
    assert.equal(
      listed[0]!.panels.some((p) => p.id === panel.id),
      false,
    );
    assert.equal(
      (await ok<Group>('GET', `/api/groups/${groupId}`, allowed)).panels.some((p) => p.id === panel.id),
      true,
    );
    await refused('GET', `/api/converses/${panel.converseId}/messages`, outsider, 404, 'IM_ERR_NOT_FOUND');
    await refused('POST', `/api/converses/${panel.converseId}/messages`, outsider, 404, 'IM_ERR_NOT_FOUND', {
      content: 'hi',
    });
    await ok('GET', `/api/converses/${panel.converseId}/messages`, allowed);

    // Taking the role takes the panel, live; allowing them by name gives it back.
    const socket = await connectClient(api.base, allowed.token);
    try {
      const gone = record(socket, 'panel:deleted');
      const back = record(socket, 'panel:created');
      await ok('DELETE', `/api/groups/${groupId}/members/${allowed.id}/roles/${staff.id}`, owner, undefined, 204);
      await until('the panel to leave them', () => gone.some((e) => e.panelId === panel.id));
      await refused('GET', `/api/converses/${panel.converseId}/messages`, allowed, 404, 'IM_ERR_NOT_FOUND');
      await ok('PATCH', `/api/groups/${groupId}/panels/${panel.id}`, owner, { allowUserIds: [allowed.id] });
      await until('the panel to come back', () => back.some((e) => e.panel.id === panel.id));
      await ok('GET', `/api/converses/${panel.converseId}/messages`, allowed);
    } finally {
      socket.disconnect();
    }

    // Public again: everyone has it.
    await ok('PATCH', `/api/groups/${groupId}/panels/${panel.id}`, owner, { private: false });
    await ok('GET', `/api/converses/${panel.converseId}/messages`, outsider);
    assert.equal(
      (await ok<Group>('GET', `/api/groups/${groupId}`, outsider)).panels.some((p) => p.id === panel.id),
      true,
    );
  });

  it('refuses allow lists naming unknown roles or non-members, and web-public private panels', async () => {
    const { owner, groupId } = await groupWithMembers(api, 0);
    const stranger = await api.user('str');
    const panel = (await ok<Group>('GET', `/api/groups/${groupId}`, owner)).panels[0]!;
    const path = `/api/groups/${groupId}/panels/${panel.id}`;
    await refused('PATCH', path, owner, 404, 'IM_ERR_NOT_FOUND', { private: true, allowRoleIds: [stranger.id] });
    await refused('PATCH', path, owner, 404, 'IM_ERR_NOT_FOUND', { private: true, allowUserIds: [stranger.id] });
    await refused('PATCH', path, owner, 400, 'IM_ERR_VALIDATION', { allowUserIds: [owner.id] });
    await refused('PATCH', path, owner, 400, 'IM_ERR_VALIDATION', { topic: 'x'.repeat(251) });
    await ok('PATCH', path, owner, { private: true });
    await refused('PATCH', path, owner, 409, 'IM_ERR_CONFLICT', { webPublic: true });
  });
});
