import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialState, setState } from '../../state/store.ts';
import { AuthScreen } from './AuthScreen.tsx';
import { apiPath } from '@im/api-client';

/** A server whose /api/auth/options answers `registration` (and `oidc`); register fails so no session starts. */
function server(registration: string, oidc?: { label: string }) {
  const fetch = vi.fn(async (url: string, _init?: RequestInit) => {
    if (url === apiPath('user.authOptions')) return Response.json({ registration, ...(oidc ? { oidc } : {}) });
    return Response.json({ error: { code: 'IM_ERR_REGISTRATION_CLOSED', message: 'closed' } }, { status: 403 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
});

describe('AuthScreen', () => {
  it('says registration is closed, and still offers to log in', async () => {
    server('closed');
    render(<AuthScreen />);
    await screen.findByText(/Registration is closed on this server/);
    expect(screen.queryByRole('button', { name: 'Create an account' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
  });

  it('asks for an invite in invite mode, filled in from the invite link, and sends it', async () => {
    const fetch = server('invite');
    setState({ route: { name: 'invite', code: 'AbC123' } });
    render(<AuthScreen />);
    // An invite link opens on signing up, under the invite's group (this server does not know the code).
    await screen.findByRole('heading', { name: 'Create an account to join' });
    await screen.findByTestId('invite-gone');
    const invite = (await screen.findByLabelText('Invite link or code')) as HTMLInputElement;
    expect(invite.value).toBe('AbC123');
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'dave' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'long enough secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(fetch).toHaveBeenCalledWith(apiPath('user.register'), expect.anything()));
    const body = JSON.parse(String(fetch.mock.calls.find(([url]) => url === apiPath('user.register'))![1]!.body));
    expect(body).toEqual({ username: 'dave', password: 'long enough secret', inviteCode: 'AbC123' });
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      expect.stringMatching(/This invite cannot be used/),
      expect.stringMatching(/This invite cannot be used/),
    ]);
  });

  it("offers single sign-on with the server's label, only when configured", async () => {
    server('open', { label: 'Sign in with Acme ID' });
    render(<AuthScreen />);
    const button = await screen.findByRole('button', { name: 'Sign in with Acme ID' });
    expect(button.getAttribute('type')).toBe('button');
    cleanup();
    server('open');
    render(<AuthScreen />);
    await screen.findByRole('button', { name: 'Create an account' });
    expect(screen.queryByTestId('sso-login')).toBeNull();
  });

  it('shows why single sign-on came back without a session, until the next attempt', async () => {
    server('open', { label: 'Sign in with SSO' });
    render(<AuthScreen ssoError="The sign-in was cancelled at the identity provider." />);
    expect((await screen.findByRole('alert')).textContent).toBe('The sign-in was cancelled at the identity provider.');
    fireEvent.click(screen.getByRole('button', { name: 'Create an account' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks for no invite when registration is open', async () => {
    server('open');
    render(<AuthScreen />);
    fireEvent.click(await screen.findByRole('button', { name: 'Create an account' }));
    await waitFor(() => expect(screen.queryByText(/Registration is closed/)).toBeNull());
    expect(screen.queryByLabelText('Invite link or code')).toBeNull();
  });
});
