import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialState, setState } from '../../state/store.ts';
import { apiError, fakeServer, type FakeAnswer } from '../../test/server.ts';
import { AuthScreen } from './AuthScreen.tsx';
import { resetSentText } from './ForgotPasswordForm.tsx';
import { apiPath } from '@im/api-client';

/** A server with e-mail on or off whose reset request answers `reset`. */
function server(email: boolean, reset: FakeAnswer = { status: 202, body: {} }) {
  return fakeServer((req) => {
    if (req.url === apiPath('user.authOptions')) return { body: { registration: 'open', email, passwordReset: email } };
    if (req.url === apiPath('user.passwordReset')) return reset;
    return apiError(404, 'IM_ERR_NOT_FOUND');
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
});

describe('Forgot password', () => {
  it('is offered only when the server sends e-mail', async () => {
    const seen = server(false);
    const { unmount } = render(<AuthScreen />);
    await waitFor(() => expect(seen.length).toBe(1));
    await screen.findByRole('button', { name: 'Create an account' });
    expect(screen.queryByRole('button', { name: 'Forgot password?' })).toBeNull();
    unmount();
    vi.unstubAllGlobals();
    server(true);
    render(<AuthScreen />);
    expect(await screen.findByRole('button', { name: 'Forgot password?' })).toBeTruthy();
  });

  it('sends the name typed, then says the same sentence whether or not an account matches', async () => {
    const seen = server(true);
    render(<AuthScreen />);
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'ada' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    const field = screen.getByLabelText('Username or e-mail') as HTMLInputElement;
    expect(field.value).toBe('ada');
    expect(document.activeElement).toBe(field);
    fireEvent.change(field, { target: { value: ' ada@example.test ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    const sent = await screen.findByRole('status');
    expect(sent.textContent).toBe(resetSentText());
    // Focused by an effect, which may run after the status is found.
    await waitFor(() => expect(document.activeElement).toBe(sent));
    expect(seen.find((r) => r.url === apiPath('user.passwordReset'))?.body).toEqual({
      usernameOrEmail: 'ada@example.test',
    });
    expect(screen.queryByLabelText('Username or e-mail')).toBeNull();
  });

  it('says why the request could not be sent (too many tries), and goes back to log in', async () => {
    server(true, apiError(429, 'IM_ERR_RATE_LIMITED', 'Too many requests, try again in a minute'));
    render(<AuthScreen />);
    fireEvent.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    fireEvent.change(screen.getByLabelText('Username or e-mail'), { target: { value: 'ada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests, try again in a minute');
    expect(screen.queryByTestId('reset-sent')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back to log in' }));
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
  });
});
