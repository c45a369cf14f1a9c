import type { Me } from '@im/protocol';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test/server.ts';
import { providerName, SsoSection } from './SsoSection.tsx';

const account = (over: Partial<Me>): Me => ({
  id: 'u1',
  username: 'ada',
  nickname: 'Ada',
  createdAt: '2025-01-01T00:00:00.000Z',
  storage: { used: 0, quota: 1 },
  serverAdmin: false,
  hasPassword: true,
  ssoLinked: false,
  status: { dnd: false },
  shareReadReceipts: true,
  ...over,
});

afterEach(() => vi.unstubAllGlobals());

describe('SsoSection', () => {
  it('names the provider after the button label', () => {
    expect(providerName('Sign in with Acme ID')).toBe('Acme ID');
    expect(providerName('Log in using Okta')).toBe('Okta');
    expect(providerName('Company login')).toBe('Company login');
  });

  it('offers to link an account that is not linked', async () => {
    fakeServer(() => ({ body: { registration: 'open', oidc: { label: 'Sign in with Acme ID' } } }));
    render(<SsoSection account={account({})} />);
    expect(await screen.findByRole('button', { name: 'Link Acme ID account' })).toBeTruthy();
  });

  it('says a linked account is linked, and offers nothing when the server has no single sign-on', async () => {
    fakeServer(() => ({ body: { registration: 'open', oidc: { label: 'Sign in with Acme ID' } } }));
    const { unmount } = render(<SsoSection account={account({ ssoLinked: true, hasPassword: false })} />);
    expect((await screen.findByTestId('sso-settings')).textContent).toMatch(/linked to Acme ID.*no password/);
    expect(screen.queryByRole('button')).toBeNull();
    unmount();
    vi.unstubAllGlobals();
    const seen = fakeServer(() => ({ body: { registration: 'open' } }));
    render(<SsoSection account={account({})} />);
    await vi.waitFor(() => expect(seen.length).toBe(1));
    expect(screen.queryByTestId('sso-settings')).toBeNull();
  });
});
