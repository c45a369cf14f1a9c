import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initialState, setState } from '../../state/store.ts';
import { alice, bob, group, GROUP_ID } from '../../test/fixtures.ts';
import { MemberPanel } from '../groups/MemberPanel.tsx';
import { GroupSidebar } from './Sidebar.tsx';

const team = group({ myRole: 'admin' });

beforeEach(() => {
  setState({
    me: alice,
    members: {
      [GROUP_ID]: {
        items: [
          { user: alice, role: 'admin', roleIds: [], joinedAt: '2026-01-01T00:00:00.000Z' },
          { user: bob, role: 'owner', roleIds: [], joinedAt: '2026-01-01T00:00:00.000Z' },
        ],
        nextCursor: null,
        loading: false,
      },
    },
  });
});
afterEach(() => setState(initialState()));

function Screen() {
  return (
    <>
      <GroupSidebar group={team} />
      <main>
        <p>Somewhere else</p>
      </main>
      <MemberPanel group={team} />
    </>
  );
}

const menus = () => screen.queryAllByRole('menu');

describe('group and member menus', () => {
  it('close on Escape, giving focus back to their button', async () => {
    const user = userEvent.setup();
    render(<Screen />);
    const button = screen.getByRole('button', { name: 'Team: group menu' });
    await user.click(button);
    expect(screen.getByRole('menuitem', { name: 'Invite people' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(menus()).toHaveLength(0);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);

    const member = screen.getByRole('button', { name: /Bob/ });
    await user.click(member);
    expect(screen.getByRole('menuitem', { name: 'Send a message' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(menus()).toHaveLength(0);
    expect(document.activeElement).toBe(member);
  });

  it('close on a click outside them, and toggle on their own button', async () => {
    const user = userEvent.setup();
    render(<Screen />);
    await user.click(screen.getByRole('button', { name: 'Team: group menu' }));
    await user.click(screen.getByText('Somewhere else'));
    expect(menus()).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: /Bob/ }));
    expect(menus()).toHaveLength(1);
    await user.click(screen.getByText('Somewhere else'));
    expect(menus()).toHaveLength(0);

    // The press on the button is inside: it does not close the menu only for the click to open it again.
    const button = screen.getByRole('button', { name: 'Team: group menu' });
    await user.click(button);
    expect(menus()).toHaveLength(1);
    await user.click(button);
    expect(menus()).toHaveLength(0);
  });

  it('are never open two at a time', async () => {
    const user = userEvent.setup();
    render(<Screen />);
    await user.click(screen.getByRole('button', { name: 'Team: group menu' }));
    await user.click(screen.getByRole('button', { name: /Bob/ }));
    expect(menus()).toHaveLength(1);
    expect(screen.getByRole('menuitem', { name: 'Send a message' })).toBeTruthy();
    // Opened from the keyboard too (no press outside): the other one closes.
    screen.getByRole('button', { name: 'Team: group menu' }).focus();
    await user.keyboard('{Enter}');
    expect(menus()).toHaveLength(1);
    expect(screen.getByRole('menuitem', { name: 'Invite people' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Alice/ }));
    expect(menus()).toHaveLength(1);
    expect(screen.queryByRole('menuitem', { name: 'Invite people' })).toBeNull();
  });

  it('give focus back to the menu button when a dialog opened from the menu closes', async () => {
    const user = userEvent.setup();
    render(<Screen />);
    const button = screen.getByRole('button', { name: 'Team: group menu' });
    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'Rename group' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});
