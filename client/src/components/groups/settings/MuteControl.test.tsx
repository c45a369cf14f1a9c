import type { Member } from '@im/protocol';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { alice, bob } from '../../../test/fixtures.ts';
import { canModerateMember } from './MembersTab.tsx';
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

describe('canModerateMember', () => {
  const member = (role: Member['role'], user = bob): Member => ({
    user,
    role,
    roleIds: [],
    joinedAt: '2026-01-01T00:00:00.000Z',
  });

  it('lets the owner act on anyone but themself, and an admin on plain members only', () => {
    expect(canModerateMember('owner', member('admin'), alice.id)).toBe(true);
    expect(canModerateMember('owner', member('member'), alice.id)).toBe(true);
    expect(canModerateMember('owner', member('owner', alice), alice.id)).toBe(false);
    expect(canModerateMember('admin', member('member'), alice.id)).toBe(true);
    expect(canModerateMember('admin', member('admin'), alice.id)).toBe(false);
    expect(canModerateMember('admin', member('owner'), alice.id)).toBe(false);
    expect(canModerateMember('member', member('member'), alice.id)).toBe(false);
  });
});
