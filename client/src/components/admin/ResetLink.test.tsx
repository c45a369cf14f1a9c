import type { AdminUser } from '@im/protocol';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeClipboard, fakeServer } from '../../test/server.ts';
import { ResetLink } from './ResetLink.tsx';
import { apiPath } from '@im/api-client';

const carol = { id: 'c'.repeat(24), username: 'carol', nickname: 'Carol' } as AdminUser;
const URL_1 = 'https://chat.example.test/reset-password?token=one';

afterEach(() => vi.unstubAllGlobals());

describe('ResetLink', () => {
  it('makes a reset link for the account and copies it', async () => {
    const seen = fakeServer(() => ({ body: { url: URL_1 } }));
    const clipboard = fakeClipboard();
    try {
      render(<ResetLink user={carol} />);
      fireEvent.click(screen.getByRole('button', { name: 'Make reset link' }));
      const field = (await screen.findByLabelText('Password reset link for @carol')) as HTMLInputElement;
      expect(field.value).toBe(URL_1);
      expect(seen).toEqual([
        { method: 'POST', url: apiPath('user.adminResetLink', { userId: carol.id }), body: undefined },
      ]);
      fireEvent.click(screen.getByRole('button', { name: /^Copy/ }));
      await screen.findByText('Copied to the clipboard.');
      expect(clipboard.written).toEqual([URL_1]);
      expect(screen.getByRole('button', { name: 'Make a new reset link' })).toBeTruthy();
    } finally {
      clipboard.restore();
    }
  });

  it('is not offered for my own account', () => {
    fakeServer(() => ({ body: { url: URL_1 } }));
    render(<ResetLink user={carol} self />);
    expect(screen.queryByRole('button', { name: 'Make reset link' })).toBeNull();
  });

  it('says why no link was made', async () => {
    fakeServer(() => apiError(403, 'IM_ERR_FORBIDDEN', 'Server admins only'));
    render(<ResetLink user={carol} />);
    fireEvent.click(screen.getByRole('button', { name: 'Make reset link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Server admins only');
    expect(screen.queryByLabelText('Password reset link for @carol')).toBeNull();
  });
});
