import type { AdminUser } from '@im/protocol';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer } from '../../test/server.ts';
import { ClaimLink } from './ClaimLink.tsx';
import { apiPath } from '@im/api-client';

const dana = { id: 'd'.repeat(24), username: 'dana', nickname: 'Dana', imported: true } as AdminUser;
const LINK = { url: 'https://chat.example.test/claim?token=one', expiresAt: '2030-01-08T10:00:00.000Z' };

afterEach(() => vi.unstubAllGlobals());

describe('ClaimLink', () => {
  it('makes a claim link for the imported account and shows it to copy', async () => {
    const seen = fakeServer(() => ({ body: LINK }));
    render(<ClaimLink user={dana} />);
    fireEvent.click(screen.getByRole('button', { name: 'Claim link' }));
    const field = (await screen.findByLabelText('Claim link for @dana')) as HTMLInputElement;
    expect(field.value).toBe(LINK.url);
    expect(seen).toEqual([
      { method: 'POST', url: apiPath('user.adminClaimLink', { userId: dana.id }), body: undefined },
    ]);
    expect(screen.getByRole('button', { name: /^Copy/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Make a new claim link' })).toBeTruthy();
  });

  it('says why no link was made', async () => {
    fakeServer(() => apiError(409, 'IM_ERR_CONFLICT', 'Already claimed'));
    render(<ClaimLink user={dana} />);
    fireEvent.click(screen.getByRole('button', { name: 'Claim link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Already claimed');
    expect(screen.queryByLabelText('Claim link for @dana')).toBeNull();
  });
});
