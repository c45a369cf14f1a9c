import type { Member, Role } from '@im/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyRoles, forgetRoles } from '../../../state/roles.ts';
import { getState, initialState, setState, useStore } from '../../../state/store.ts';
import { alice, bob, group, GROUP_ID } from '../../../test/fixtures.ts';
import { fakeServer } from '../../../test/server.ts';
import { MembersTab } from '../settings/MembersTab.tsx';
import { apiPath } from '@im/api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
  forgetRoles();
});

const crew: Role = { id: 'r'.repeat(24), name: 'Crew', color: '#e67e22', permissions: [], position: 1 };
const member = (user: Member['user'], role: Member['role'], roleIds: string[] = []): Member => ({
  user,
  role,
  roleIds,
  joinedAt: '2026-01-01T00:00:00.000Z',
});

function Live() {
  const held = useStore((s) => s.groups[GROUP_ID]);
  return held ? <MembersTab group={held} /> : null;
}

/** The Members tab as Alice (a plain member) sees it when `@everyone` holds `myPermissions`; Bob owns the group. */
function open(myPermissions: Role['permissions']) {
  const everyone: Role = { id: GROUP_ID, name: '@everyone', permissions: myPermissions, position: 0 };
  setState({
    me: alice,
    groups: { [GROUP_ID]: group({ myPermissions }) },
    groupOrder: [GROUP_ID],
    members: {
      [GROUP_ID]: { items: [member(bob, 'owner'), member(alice, 'member')], nextCursor: null, loading: false },
    },
  });
  applyRoles(GROUP_ID, [everyone, crew]);
  const requests = fakeServer((req) =>
    req.method === 'PUT' ? { body: member(alice, 'member', [crew.id]) } : { status: 204 },
  );
  render(<Live />);
  return requests;
}

describe('roles on member rows', () => {
  it('gives a role from the row of a holder of manageRoles, and shows it as a chip in its colour', async () => {
    const requests = open(['manageRoles']);
    const row = screen.getByRole('listitem', { name: 'Alice' });
    expect(within(row).queryByTestId('role-chip')).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Roles of Alice' }));
    fireEvent.click(within(row).getByRole('checkbox', { name: 'Crew' }));
    await within(row).findByTestId('role-chip');
    expect(requests).toEqual([
      {
        method: 'PUT',
        url: apiPath('group.giveRole', { groupId: GROUP_ID, userId: alice.id, roleId: crew.id }),
        body: undefined,
      },
    ]);
    expect(within(row).getByText('Alice').style.color).toBe('rgb(230, 126, 34)');
    // It is me: my roles follow.
    expect(getState().groups[GROUP_ID]!.myRoleIds).toEqual([crew.id]);

    fireEvent.click(within(row).getByRole('checkbox', { name: 'Crew' }));
    await waitFor(() => expect(within(row).queryByTestId('role-chip')).toBeNull());
    expect(requests.at(-1)).toMatchObject({ method: 'DELETE' });
  });

  it('offers no role controls without manageRoles', () => {
    open([]);
    expect(screen.queryByRole('button', { name: /^Roles of/ })).toBeNull();
  });
});
