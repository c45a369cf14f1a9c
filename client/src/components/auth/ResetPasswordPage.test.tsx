import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { http } from '../../api/http.ts';
import { initialState, setState, useStore } from '../../state/store.ts';
import { alice } from '../../test/fixtures.ts';
import { apiError, fakeServer, type FakeAnswer } from '../../test/server.ts';
import { passwordProblem, ResetPasswordPage } from './ResetPasswordPage.tsx';
import { apiPath } from '@im/api-client';

const TOKEN = 'tok.en-1';

function server(confirm: FakeAnswer, me: FakeAnswer = apiError(401, 'IM_ERR_UNAUTHORIZED')) {
  return fakeServer((req) => {
    if (req.url === apiPath('user.passwordResetConfirm')) return confirm;
    if (req.url === apiPath('user.me')) return me;
    return apiError(404, 'IM_ERR_NOT_FOUND');
  });
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

afterEach(() => {
  vi.unstubAllGlobals();
  http.setToken(null);
  http.setUnauthorizedHandler(null);
  setState(initialState());
});

describe('ResetPasswordPage', () => {
  it('asks for 8 characters and the same password twice before sending anything', () => {
    expect(passwordProblem('short', 'short')).toMatch(/at least 8/);
    expect(passwordProblem('long enough', 'long enougH')).toBe('The two passwords differ.');
    expect(passwordProblem('long enough', 'long enough')).toBeNull();
    const seen = server({ status: 204 });
    render(<ResetPasswordPage token={TOKEN} />);
    expect(document.activeElement).toBe(screen.getByLabelText('New password'));
    type('New password', 'long enough');
    type('New password again', 'long enougH');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(screen.getByRole('alert').textContent).toBe('The two passwords differ.');
    expect(screen.getByLabelText('New password again').getAttribute('aria-invalid')).toBe('true');
    expect(seen.length).toBe(0);
  });

  it('sends the token with the new password, then says it is set and leads to log in', async () => {
    const seen = server({ status: 204 });
    setState({ route: { name: 'reset-password', token: TOKEN } });
    render(<ResetPasswordPage token={TOKEN} />);
    type('New password', 'a new secret!');
    type('New password again', 'a new secret!');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    const done = await screen.findByTestId('reset-done');
    expect(done.getAttribute('role')).toBe('status');
    await waitFor(() => expect(document.activeElement).toBe(done));
    expect(seen).toEqual([
      {
        method: 'POST',
        url: apiPath('user.passwordResetConfirm'),
        body: { token: TOKEN, newPassword: 'a new secret!' },
      },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(useStore.getState().route).toEqual({ name: 'home' });
  });

  it("signs this browser out when the reset ended its session, and not when it is another account's", async () => {
    for (const [me, endsHere] of [
      [apiError(401, 'IM_ERR_UNAUTHORIZED'), true],
      [{ body: alice }, false],
    ] as const) {
      server({ status: 204 }, me);
      setState({ me: alice });
      http.setToken('session-token');
      const ended = vi.fn();
      http.setUnauthorizedHandler(ended);
      const { unmount } = render(<ResetPasswordPage token={TOKEN} />);
      type('New password', 'a new secret!');
      type('New password again', 'a new secret!');
      fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
      await screen.findByTestId('reset-done');
      expect(ended).toHaveBeenCalledTimes(endsHere ? 1 : 0);
      unmount();
      vi.unstubAllGlobals();
    }
  });

  it("shows the server's reason for a link that expired or was used, and keeps the form", async () => {
    server(apiError(410, 'IM_ERR_LINK_USED', 'This link was used already: ask for a new one'));
    render(<ResetPasswordPage token={TOKEN} />);
    type('New password', 'a new secret!');
    type('New password again', 'a new secret!');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This link was used already: ask for a new one');
    expect(screen.queryByTestId('reset-done')).toBeNull();
    expect(screen.getByRole('button', { name: 'Set new password' })).toBeTruthy();
  });

  it('says a link without its token is incomplete', () => {
    server({ status: 204 });
    render(<ResetPasswordPage token="" />);
    expect(screen.getByRole('alert').textContent).toMatch(/no token/);
    expect(screen.queryByLabelText('New password')).toBeNull();
  });
});
