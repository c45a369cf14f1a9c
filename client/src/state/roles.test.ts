import type { Role } from '@im/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alice, group, GROUP_ID, panel } from '../test/fixtures.ts';
import { fakeServer } from '../test/server.ts';
import { applyMemberUpdate, updateGroup } from './groups.ts';
import { applyRoles, forgetRoles, refreshMyPermissions, takeRole } from './roles.ts';
import { getState, initialState, setState } from './store.ts';
import { apiPath } from '@im/api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
  forgetRoles();
});

const everyone: Role = { id: GROUP_ID, name: '@everyone', permissions: ['createInvites'], position: 0 };
const crew: Role = { id: 'r'.repeat(24), name: 'Crew', permissions: ['manageRoles', 'pinMessages'], position: 1 };

function start(change: Parameters<typeof group>[0] = {}) {
  setState({ me: alice, groups: { [GROUP_ID]: group(change) }, groupOrder: [GROUP_ID] });
}

describe('private panels across group:updated', () => {
  it('keeps the private panels I was let into where they were, and takes the shared ones from the event', () => {
    const secret = panel(2, { private: true });
    start({ panels: [panel(1), secret, panel(3)] });
    const {
      myRole: _r,
      myRoleIds: _i,
      myPermissions: _p,
      ...info
    } = group({
      name: 'Renamed',
      panels: [panel(1), panel(3, { name: 'news' }), panel(4)],
    });
    updateGroup(info);
    const held = getState().groups[GROUP_ID]!;
    expect(held.name).toBe('Renamed');
    expect(held.panels.map((p) => p.name)).toEqual(['general', 'panel-2', 'news', 'panel-4']);
  });

  it('drops a shared panel the event no longer has', () => {
    start({ panels: [panel(1), panel(2)] });
    const { myRole: _r, myRoleIds: _i, myPermissions: _p, ...info } = group({ panels: [panel(1)] });
    updateGroup(info);
    expect(getState().groups[GROUP_ID]!.panels.map((p) => p.id)).toEqual([panel(1).id]);
  });
});

describe('my permissions', () => {
  it('follow my roles and the roles themselves', () => {
    start({ myPermissions: ['createInvites'] });
    applyRoles(GROUP_ID, [everyone, crew]);
    expect(getState().groups[GROUP_ID]!.myPermissions).toEqual(['createInvites']);

    applyMemberUpdate(GROUP_ID, alice.id, 'member', undefined, [crew.id]);
    refreshMyPermissions(GROUP_ID);
    expect(getState().groups[GROUP_ID]).toMatchObject({
      myRoleIds: [crew.id],
      myPermissions: ['manageRoles', 'createInvites', 'pinMessages'],
    });

    applyRoles(GROUP_ID, [everyone, { ...crew, permissions: [] }]);
    expect(getState().groups[GROUP_ID]!.myPermissions).toEqual(['createInvites']);
  });

  it('are all of them for an admin', () => {
    start();
    applyRoles(GROUP_ID, [everyone]);
    applyMemberUpdate(GROUP_ID, alice.id, 'admin', undefined, []);
    refreshMyPermissions(GROUP_ID);
    expect(getState().groups[GROUP_ID]!.myPermissions).toHaveLength(12);
  });

  it('lose a role I take from myself', async () => {
    start({ myRoleIds: [crew.id], myPermissions: ['manageRoles', 'createInvites', 'pinMessages'] });
    applyRoles(GROUP_ID, [everyone, crew]);
    const requests = fakeServer(() => ({ status: 204 }));
    await takeRole(GROUP_ID, alice.id, crew.id);
    expect(requests).toEqual([
      {
        method: 'DELETE',
        url: apiPath('group.giveRole', { groupId: GROUP_ID, userId: alice.id, roleId: crew.id }),
        body: undefined,
      },
    ]);
    expect(getState().groups[GROUP_ID]).toMatchObject({ myRoleIds: [], myPermissions: ['createInvites'] });
  });
});
