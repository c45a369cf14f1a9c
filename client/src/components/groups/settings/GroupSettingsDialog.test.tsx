import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetRoles } from '../../../state/roles.ts';
import { initialState, setState } from '../../../state/store.ts';
import { group, GROUP_ID } from '../../../test/fixtures.ts';
import { fakeServer } from '../../../test/server.ts';
import { canOpenGroupSettings, GroupSettingsDialog } from './GroupSettingsDialog.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
  forgetRoles();
});

const tabNames = () =>
  within(screen.getByRole('tablist', { name: 'Group settings' }))
    .getAllByRole('tab')
    .map((t) => t.textContent);

function open(held: ReturnType<typeof group>) {
  setState({ groups: { [GROUP_ID]: held }, groupOrder: [GROUP_ID] });
  fakeServer((req) => ({ body: req.url.includes('/members') ? { items: [], nextCursor: null } : [] }));
  render(<GroupSettingsDialog group={held} onClose={() => undefined} />);
}

describe('GroupSettingsDialog: tabs by permission', () => {
  it('shows a member who may manage roles the members and the roles only', () => {
    const held = group({ myPermissions: ['createInvites', 'manageRoles'] });
    expect(canOpenGroupSettings(held)).toBe(true);
    open(held);
    expect(tabNames()).toEqual(['Members', 'Roles']);
  });

  it('adds the group tabs for manageGroup and bans for banMembers', () => {
    open(group({ myPermissions: ['manageGroup', 'banMembers'] }));
    expect(tabNames()).toEqual(['Members', 'Bans', 'Invites', 'Visibility', 'Icon', 'Emoji']);
  });

  it('adds integrations, reports and the audit log for their permissions', () => {
    open(group({ myPermissions: ['manageIntegrations', 'manageMessages', 'viewAuditLog'] }));
    expect(tabNames()).toEqual(['Members', 'Integrations', 'Reports', 'Audit log']);
  });

  it('offers User groups to a member allowed to mention everyone', () => {
    expect(canOpenGroupSettings(group({ myPermissions: ['mentionAll'] }))).toBe(true);
    open(group({ myPermissions: ['mentionAll'] }));
    expect(tabNames()).toEqual(['Members', 'User groups']);
  });

  it('is not offered to a member with none of its permissions, and shows everything to an admin', () => {
    expect(canOpenGroupSettings(group({ myPermissions: ['createInvites', 'pinMessages'] }))).toBe(false);
    open(group({ myRole: 'admin' }));
    expect(tabNames()).toEqual([
      'Members',
      'Roles',
      'User groups',
      'Bans',
      'Invites',
      'Visibility',
      'Icon',
      'Emoji',
      'Integrations',
      'Reports',
      'Audit log',
    ]);
  });
});
