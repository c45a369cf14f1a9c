import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialState, setState, useStore } from '../../state/store.ts';
import { apiError, fakeServer, type FakeAnswer } from '../../test/server.ts';
import { VerifyEmailPage } from './VerifyEmailPage.tsx';
import { apiPath } from '@im/api-client';

function server(verify: FakeAnswer) {
  return fakeServer((req) => (req.url === apiPath('user.verifyEmail') ? verify : apiError(404, 'IM_ERR_NOT_FOUND')));
}

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
});

describe('VerifyEmailPage', () => {
  it('redeems the token once and says the address is verified', async () => {
    const seen = server({ status: 204 });
    setState({ route: { name: 'verify-email', token: 'v-1' } });
    const { unmount } = render(<VerifyEmailPage token="v-1" />);
    expect(screen.getByRole('status').textContent).toBe('Checking the link…');
    expect((await screen.findByTestId('email-verified')).textContent).toMatch(/is verified/);
    unmount();
    // Shown again (React may mount twice): the same token is not sent again.
    render(<VerifyEmailPage token="v-1" />);
    await screen.findByTestId('email-verified');
    expect(seen).toEqual([{ method: 'POST', url: apiPath('user.verifyEmail'), body: { token: 'v-1' } }]);
    fireEvent.click(screen.getByRole('button', { name: 'Go to log in' }));
    expect(useStore.getState().route).toEqual({ name: 'home' });
  });

  it("shows the server's reason when the link expired", async () => {
    server(apiError(410, 'IM_ERR_LINK_EXPIRED', 'This link expired: ask for a new one'));
    render(<VerifyEmailPage token="v-2" />);
    expect((await screen.findByRole('alert')).textContent).toBe('This link expired: ask for a new one');
    expect(screen.getByRole('heading').textContent).toBe('Address not verified');
  });
});
