import type { Role } from '@im/protocol';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyRoles, forgetRoles } from '../../../state/roles.ts';
import { initialState, setState, useStore } from '../../../state/store.ts';
import { group, GROUP_ID } from '../../../test/fixtures.ts';
import { fakeServer, type SeenRequest } from '../../../test/server.ts';
import { RolesTab } from './RolesTab.tsx';
import { apiPath } from '@im/api-client';
import { answerConfirmations } from '../../../test/confirmations.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
  forgetRoles();
});

const everyone: Role = { id: GROUP_ID, name: '@everyone', permissions: ['createInvites'], position: 0 };
const mods: Role = { id: 'r'.repeat(24), name: 'Mods', color: '#e91e63', permissions: ['pinMessages'], position: 2 };
const helpers: Role = { id: 's'.repeat(24), name: 'Helpers', permissions: [], position: 1 };

function Live() {
  const held = useStore((s) => s.groups[GROUP_ID]);
  return held ? <RolesTab group={held} /> : null;
}

/** The tab as the owner sees it, against a server holding `roles` (shuffled: the tab orders them). */
function open(answer: (req: SeenRequest) => unknown = () => undefined) {
  setState({ groups: { [GROUP_ID]: group({ myRole: 'owner' }) }, groupOrder: [GROUP_ID] });
  const requests = fakeServer((req) => {
    if (req.method === 'GET') return { body: [helpers, everyone, mods] };
    const body = answer(req);
    return body === undefined ? { status: 204 } : { body };
  });
  render(<Live />);
  return requests;
}

const rowNames = () =>
  within(screen.getByRole('list', { name: 'Roles' }))
    .getAllByTestId('role-row')
    .map((r) => r.getAttribute('aria-label'));

describe('RolesTab', () => {
  it('lists the roles highest first with @everyone last, which has only its permissions to edit', async () => {
    open();
    await screen.findByRole('listitem', { name: 'Mods' });
    expect(rowNames()).toEqual(['Mods', 'Helpers', '@everyone']);
    const everyoneRow = screen.getByRole('listitem', { name: '@everyone' });
    expect(within(everyoneRow).queryByRole('button', { name: /Delete|Move/ })).toBeNull();
    fireEvent.click(within(everyoneRow).getByRole('button', { name: 'Edit @everyone' }));
    expect(within(everyoneRow).queryByLabelText('Role name')).toBeNull();
    expect(within(everyoneRow).getByRole('checkbox', { name: /Create invites/ })).toHaveProperty('checked', true);
    // The top role cannot go higher, the lowest custom one not below @everyone.
    expect(screen.getByRole('button', { name: 'Move Mods up' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Move Helpers down' })).toHaveProperty('disabled', true);
  });

  it('creates a role with its name and colour, and shows it', async () => {
    const requests = open((req) => ({ id: 't'.repeat(24), position: 3, ...(req.body as object) }));
    await screen.findByRole('listitem', { name: 'Mods' });
    fireEvent.change(screen.getByLabelText('New role name'), { target: { value: ' Crew ' } });
    fireEvent.change(screen.getByLabelText('New role colour'), { target: { value: '#00ff00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create role' }));
    await screen.findByRole('listitem', { name: 'Crew' });
    expect(requests.at(-1)).toEqual({
      method: 'POST',
      url: apiPath('group.roles', { groupId: GROUP_ID }),
      body: { name: 'Crew', permissions: [], color: '#00ff00' },
    });
    expect(rowNames()[0]).toBe('Crew');
  });

  it('ticks permissions, each read with its description, and saves them', async () => {
    const requests = open((req) => ({ ...helpers, ...(req.body as object) }));
    const row = await screen.findByRole('listitem', { name: 'Helpers' });
    fireEvent.click(within(row).getByRole('button', { name: 'Edit Helpers' }));
    const manage = within(row).getByRole('checkbox', { name: /Manage roles/ });
    expect(document.getElementById(manage.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /give and take them/,
    );
    fireEvent.click(within(row).getByRole('checkbox', { name: /Kick members/ }));
    fireEvent.click(manage);
    fireEvent.change(within(row).getByLabelText('Role name'), { target: { value: 'Helpers team' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Save role' }));
    await screen.findByRole('listitem', { name: 'Helpers team' });
    expect(requests.at(-1)).toEqual({
      method: 'PATCH',
      url: apiPath('group.updateRole', { groupId: GROUP_ID, roleId: helpers.id }),
      body: { permissions: ['manageRoles', 'kickMembers'], name: 'Helpers team' },
    });
  });

  it("takes a role's colour away with an empty colour", async () => {
    const requests = open((req) => ({ ...mods, ...(req.body as object) }));
    const row = await screen.findByRole('listitem', { name: 'Mods' });
    fireEvent.click(within(row).getByRole('button', { name: 'Edit Mods' }));
    expect(within(row).getByLabelText('Role colour')).toHaveProperty('value', '#e91e63');
    fireEvent.click(within(row).getByRole('checkbox', { name: "Colour its members' names" }));
    expect(within(row).getByLabelText('Role colour')).toHaveProperty('disabled', true);
    fireEvent.click(within(row).getByRole('button', { name: 'Save role' }));
    await waitFor(() => expect(within(row).queryByRole('button', { name: 'Save role' })).toBeNull());
    expect(requests.at(-1)!.body).toEqual({ permissions: ['pinMessages'], color: '' });
  });

  it('moves a role up to the position of the one above, then reads the new order', async () => {
    const requests = open(() => helpers);
    await screen.findByRole('listitem', { name: 'Helpers' });
    fireEvent.click(screen.getByRole('button', { name: 'Move Helpers up' }));
    await waitFor(() => expect(requests.filter((r) => r.method === 'GET')).toHaveLength(2));
    expect(requests[1]).toEqual({
      method: 'PATCH',
      url: apiPath('group.updateRole', { groupId: GROUP_ID, roleId: helpers.id }),
      body: { position: 2 },
    });
  });

  it('deletes a role after asking', async () => {
    answerConfirmations(true);
    const requests = open();
    await screen.findByRole('listitem', { name: 'Helpers' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Helpers' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Helpers' })).toBeNull());
    expect(requests.at(-1)).toMatchObject({
      method: 'DELETE',
      url: apiPath('group.updateRole', { groupId: GROUP_ID, roleId: helpers.id }),
    });
  });

  it('follows roles:updated from another manager', async () => {
    open();
    await screen.findByRole('listitem', { name: 'Mods' });
    act(() =>
      applyRoles(GROUP_ID, [everyone, { ...mods, name: 'Moderators', position: 1 }, { ...helpers, position: 2 }]),
    );
    expect(rowNames()).toEqual(['Helpers', 'Moderators', '@everyone']);
  });
});

describe('RolesTab for a member who manages roles', () => {
  it('changes only roles ranked below their own, handing out only permissions they hold', async () => {
    const leads: Role = { ...mods, name: 'Leads', permissions: ['manageRoles', 'pinMessages'] };
    setState({
      groups: {
        [GROUP_ID]: group({ myRoleIds: [leads.id], myPermissions: ['createInvites', 'manageRoles', 'pinMessages'] }),
      },
      groupOrder: [GROUP_ID],
    });
    fakeServer(() => ({ body: [everyone, helpers, leads] }));
    render(<Live />);
    const own = await screen.findByRole('listitem', { name: 'Leads' });
    expect(within(own).queryByRole('button', { name: /Edit|Delete|Move/ })).toBeNull();
    expect(within(own).getByText(/ranked at or above your own roles/)).toBeTruthy();

    const below = screen.getByRole('listitem', { name: 'Helpers' });
    expect(within(below).getByRole('button', { name: 'Move Helpers up' })).toHaveProperty('disabled', true);
    fireEvent.click(within(below).getByRole('button', { name: 'Edit Helpers' }));
    expect(within(below).getByRole('checkbox', { name: /Pin messages/ })).toHaveProperty('disabled', false);
    expect(within(below).getByRole('checkbox', { name: /Kick members/ })).toHaveProperty('disabled', true);
  });
});
