import type { Member, Panel, Role } from '@im/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetRoles } from '../../state/roles.ts';
import { getState, initialState, setState } from '../../state/store.ts';
import { alex, alice, bob, group, GROUP_ID, panel } from '../../test/fixtures.ts';
import { fakeServer } from '../../test/server.ts';
import { PanelDialog } from './dialogs.tsx';
import { PanelSettingsDialog } from './PanelSettingsDialog.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
  forgetRoles();
});

const crew: Role = { id: 'r'.repeat(24), name: 'Crew', permissions: [], position: 1 };
const everyone: Role = { id: GROUP_ID, name: '@everyone', permissions: [], position: 0 };
const member = (user: Member['user'], role: Member['role'] = 'member'): Member => ({
  user,
  role,
  roleIds: [],
  joinedAt: '2026-01-01T00:00:00.000Z',
});

/** The settings of `first` as the owner (Bob) sees them; the server answers a PATCH with the panel changed. */
function open(first: Panel) {
  setState({
    me: bob,
    groups: { [GROUP_ID]: group({ myRole: 'owner', panels: [first] }) },
    groupOrder: [GROUP_ID],
    users: { [alice.id]: alice, [alex.id]: alex, [bob.id]: bob },
    members: {
      [GROUP_ID]: { items: [member(bob, 'owner'), member(alice), member(alex)], nextCursor: null, loading: false },
    },
  });
  const requests = fakeServer((req) =>
    req.method === 'GET' ? { body: [crew, everyone] } : { body: { ...first, ...(req.body as object) } },
  );
  const onClose = vi.fn();
  render(<PanelSettingsDialog groupId={GROUP_ID} panel={first} onClose={onClose} />);
  return { requests, onClose, patches: () => requests.filter((r) => r.method === 'PATCH').map((r) => r.body) };
}

describe('PanelSettingsDialog: private panels and topic', () => {
  it('makes a panel private, allowed to a role and a person picked by name', async () => {
    const { onClose, patches } = open(panel(1));
    const toggle = screen.getByRole('switch', { name: 'Private' }) as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    expect(screen.queryByRole('group', { name: 'Allowed roles' })).toBeNull();

    fireEvent.click(toggle);
    const roles = screen.getByRole('group', { name: 'Allowed roles' });
    fireEvent.click(await within(roles).findByRole('checkbox', { name: 'Crew' }));
    const people = screen.getByRole('group', { name: 'Allowed people' });
    // The owner sees every panel anyway: only members are offered.
    expect(within(people).queryByRole('checkbox', { name: /Bob/ })).toBeNull();
    fireEvent.change(within(people).getByLabelText('Find a member'), { target: { value: 'alexa' } });
    expect(within(people).queryByRole('checkbox', { name: /Alice/ })).toBeNull();
    fireEvent.click(within(people).getByRole('checkbox', { name: /Alexandra/ }));
    expect(within(people).getByRole('checkbox', { name: /Alexandra/ })).toHaveProperty('checked', true);

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(patches()).toEqual([{ private: true, allowRoleIds: [crew.id], allowUserIds: [alex.id] }]);
    expect(getState().groups[GROUP_ID]!.panels[0]).toMatchObject({ private: true, allowRoleIds: [crew.id] });
  });

  it('opens a private panel to everyone again, sending only that', async () => {
    const { onClose, patches } = open(panel(1, { private: true, allowRoleIds: [crew.id], allowUserIds: [] }));
    const toggle = screen.getByRole('switch', { name: 'Private' }) as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    expect(await screen.findByRole('checkbox', { name: 'Crew' })).toHaveProperty('checked', true);
    fireEvent.click(toggle);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(patches()).toEqual([{ private: false }]);
  });

  it('keeps a private panel off the web, saying why', () => {
    setState({ groups: { [GROUP_ID]: group({ myRole: 'owner', visibility: 'public' }) } });
    open(panel(1, { private: true }));
    setState((s) => ({ groups: { [GROUP_ID]: { ...s.groups[GROUP_ID]!, visibility: 'public' } } }));
    const web = screen.getByRole('switch', { name: 'Web-public' }) as HTMLInputElement;
    expect(web.disabled).toBe(true);
    expect(document.getElementById(web.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /A private panel cannot be web-public/,
    );
  });

  it('saves a topic of at most 250 characters, and an emptied one clears it', async () => {
    const { onClose, patches } = open(panel(1, { topic: 'Old topic' }));
    const topic = screen.getByLabelText('Topic') as HTMLInputElement;
    expect(topic.value).toBe('Old topic');
    expect(topic.maxLength).toBe(250);
    fireEvent.change(topic, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(patches()).toEqual([{ topic: '' }]);
  });
});

describe('PanelDialog: a new panel', () => {
  it('starts private to a role, with a topic', async () => {
    setState({
      me: bob,
      groups: { [GROUP_ID]: group({ myRole: 'owner' }) },
      groupOrder: [GROUP_ID],
      members: { [GROUP_ID]: { items: [member(bob, 'owner')], nextCursor: null, loading: false } },
    });
    const made = panel(2, { name: 'crew', private: true, allowRoleIds: [crew.id], allowUserIds: [] });
    const requests = fakeServer((req) => (req.method === 'GET' ? { body: [crew, everyone] } : { body: made }));
    const onClose = vi.fn();
    render(<PanelDialog groupId={GROUP_ID} onClose={onClose} />);
    fireEvent.change(screen.getByLabelText('Panel name'), { target: { value: 'crew' } });
    fireEvent.change(screen.getByLabelText('Topic'), { target: { value: ' Call times ' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Private' }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Crew' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { name: 'crew', type: 'text', topic: 'Call times', private: true, allowRoleIds: [crew.id], allowUserIds: [] },
    ]);
    expect(getState().groups[GROUP_ID]!.panels.map((p) => p.name)).toEqual(['general', 'crew']);
  });
});
