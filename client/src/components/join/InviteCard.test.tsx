import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bob } from '../../test/fixtures.ts';
import { InviteCard } from './InviteCard.tsx';

const preview = {
  group: {
    id: 'g1'.padEnd(24, '0'),
    name: 'Trail runners',
    memberCount: 1,
    description: 'Weekend runs',
    language: 'en' as const,
  },
  inviter: bob,
  expiresAt: '2026-12-01T00:00:00.000Z',
};

describe('InviteCard', () => {
  it('names the group, says what it is about, how many are in it and who invited', () => {
    render(<InviteCard preview={preview} />);
    expect(screen.getByRole('heading', { name: 'Trail runners' })).toBeTruthy();
    expect(screen.getByText('Weekend runs')).toBeTruthy();
    expect(screen.getByTestId('invite-member-count').textContent).toBe('1 member');
    expect(screen.getByText(`${bob.nickname} invited you to join`)).toBeTruthy();
  });

  it('counts members with the plural, and says when the invite cannot be used', () => {
    const { unmount } = render(<InviteCard preview={{ ...preview, group: { ...preview.group, memberCount: 12 } }} />);
    expect(screen.getByTestId('invite-member-count').textContent).toBe('12 members');
    unmount();
    render(<InviteCard preview={null} />);
    expect(screen.getByRole('alert').textContent).toMatch(/expired, been used up or revoked/);
  });
});
