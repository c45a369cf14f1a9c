import type { Group, Member, Role } from '@im/protocol';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mayModerate } from '../../../state/permissions.ts';
import { alice, bob, group } from '../../../test/fixtures.ts';
import { MuteControl } from './MuteControl.tsx';

describe('MuteControl', () => {
  it('mutes for the length chosen, 10 minutes unless another is picked', () => {
    const onMute = vi.fn();
    render(<MuteControl name="Bob" onMute={onMute} />);
    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(onMute).toHaveBeenLastCalledWith(600);
    const length = screen.getByLabelText('Mute Bob for');
    for (const [label, seconds] of [
      ['1 hour', 3600],
      ['1 day', 86_400],
      ['1 week', 604_800],
    ] as const) {
      fireEvent.change(length, { target: { value: String(seconds) } });
      expect((length as HTMLSelectElement).selectedOptions[0]?.textContent).toBe(label);
      fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
      expect(onMute).toHaveBeenLastCalledWith(seconds);
    }
    expect(screen.queryByRole('button', { name: 'Unmute' })).toBeNull();
  });

  it('offers Unmute (seconds 0) only while the mute lasts', () => {
    const onMute = vi.fn();
    const { rerender } = render(
      <MuteControl name="Bob" mutedUntil={new Date(Date.now() + 60_000).toISOString()} onMute={onMute} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(onMute).toHaveBeenCalledWith(0);
    rerender(<MuteControl name="Bob" mutedUntil={new Date(Date.now() - 1000).toISOString()} onMute={onMute} />);
    expect(screen.queryByRole('button', { name: 'Unmute' })).toBeNull();
  });
});

describe('mayModerate', () => {
  const crew: Role = { id: 'r'.repeat(24), name: 'Crew', permissions: [], position: 1 };
  const leads: Role = { id: 's'.repeat(24), name: 'Leads', permissions: [], position: 2 };
  const roles = [leads, crew];
  const member = (role: Member['role'], user = bob, roleIds: string[] = []): Member => ({
    user,
    role,
    roleIds,
    joinedAt: '2026-01-01T00:00:00.000Z',
  });
  const as = (myRole: Group['myRole'], change: Partial<Group> = {}) => group({ myRole, ...change });

  it('lets the owner act on anyone but themself, and an admin on plain members only', () => {
    expect(mayModerate(as('owner'), member('admin'), alice.id, 'kickMembers', roles)).toBe(true);
    expect(mayModerate(as('owner'), member('member'), alice.id, 'banMembers', roles)).toBe(true);
    expect(mayModerate(as('owner'), member('owner', alice), alice.id, 'kickMembers', roles)).toBe(false);
    expect(mayModerate(as('admin'), member('member'), alice.id, 'muteMembers', roles)).toBe(true);
    expect(mayModerate(as('admin'), member('admin'), alice.id, 'kickMembers', roles)).toBe(false);
    expect(mayModerate(as('admin'), member('owner'), alice.id, 'kickMembers', roles)).toBe(false);
    expect(mayModerate(as('member'), member('member'), alice.id, 'kickMembers', roles)).toBe(false);
  });

  it('lets a member holding the permission act on plain members ranked below them only', () => {
    const lead = as('member', { myRoleIds: [leads.id], myPermissions: ['muteMembers'] });
    expect(mayModerate(lead, member('member', bob, [crew.id]), alice.id, 'muteMembers', roles)).toBe(true);
    expect(mayModerate(lead, member('member'), alice.id, 'muteMembers', roles)).toBe(true);
    expect(mayModerate(lead, member('member', bob, [leads.id]), alice.id, 'muteMembers', roles)).toBe(false);
    expect(mayModerate(lead, member('member', bob, [crew.id]), alice.id, 'kickMembers', roles)).toBe(false);
    expect(mayModerate(lead, member('admin'), alice.id, 'muteMembers', roles)).toBe(false);
  });
});
