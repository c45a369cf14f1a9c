import type { Me } from '@im/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, type SeenRequest } from '../../test/server.ts';
import { EmailSection } from './EmailSection.tsx';
import { apiPath } from '@im/api-client';

const account = (over: Record<string, unknown> = {}): Me =>
  ({
    id: 'u1',
    username: 'ada',
    nickname: 'Ada',
    createdAt: '2025-01-01T00:00:00.000Z',
    storage: { used: 0, quota: 1 },
    serverAdmin: false,
    hasPassword: true,
    ssoLinked: false,
    shareReadReceipts: true,
    emailVerified: false,
    emailNotifications: '10m',
    ...over,
  }) as Me;

/** A server with e-mail on or off; PATCH /api/users/me answers the change as unverified (or `patch`). */
function server(email: boolean, patch?: (req: SeenRequest) => ReturnType<typeof apiError>) {
  return fakeServer((req) => {
    if (req.url === apiPath('user.authOptions')) return { body: { registration: 'open', email, passwordReset: email } };
    if (req.method === 'PATCH' && req.url === apiPath('user.me')) {
      if (patch) return patch(req);
      return { body: { ...account(), ...(req.body as object), emailVerified: false } };
    }
    return apiError(404, 'IM_ERR_NOT_FOUND');
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('EmailSection', () => {
  it('shows the address with its state, and offers to resend the link only while unverified', async () => {
    server(true);
    const { unmount } = render(<EmailSection account={account({ email: 'ada@example.test' })} />);
    const state = await screen.findByTestId('email-state');
    expect(state.textContent).toMatch(/ada@example.test.*Not verified/);
    expect(screen.getByRole('button', { name: 'Resend verification' })).toBeTruthy();
    expect(screen.getByLabelText('E-mail address').getAttribute('aria-describedby')).toBe(state.id);
    unmount();
    render(<EmailSection account={account({ email: 'ada@example.test', emailVerified: true })} />);
    expect((await screen.findByTestId('email-state')).textContent).toMatch(/Verified/);
    expect(screen.queryByRole('button', { name: 'Resend verification' })).toBeNull();
  });

  it('sets a new address, says a link was sent, and resends it', async () => {
    const seen = server(true);
    render(<EmailSection account={account({ email: 'old@example.test', emailVerified: true })} />);
    const field = await screen.findByLabelText('E-mail address');
    const change = screen.getByRole('button', { name: 'Change address' }) as HTMLButtonElement;
    expect(change.disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'ada@example.test' } });
    fireEvent.click(change);
    expect((await screen.findByRole('status')).textContent).toMatch(/sent a verification link to ada@example.test/);
    expect(screen.getByTestId('email-state').textContent).toMatch(/ada@example.test.*Not verified/);
    fireEvent.click(screen.getByRole('button', { name: 'Resend verification' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/again/));
    expect(seen.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([
      { email: 'ada@example.test' },
      { email: 'ada@example.test' },
    ]);
  });

  it("saves the notification choice, and puts it back with the server's reason when refused", async () => {
    let refuse = false;
    const seen = server(true, (req) =>
      refuse
        ? apiError(400, 'IM_ERR_VALIDATION', 'emailNotifications: not allowed')
        : { body: { ...account(), ...(req.body as object) } },
    );
    render(<EmailSection account={account({ email: 'ada@example.test', emailVerified: true })} />);
    const choices = within(await screen.findByRole('group', { name: /missed direct messages/ }));
    expect((choices.getByLabelText('After 10 minutes') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(choices.getByLabelText('Daily digest'));
    expect((await screen.findByRole('status')).textContent).toBe('E-mail notifications saved.');
    expect(seen.at(-1)?.body).toEqual({ emailNotifications: 'daily' });
    refuse = true;
    fireEvent.click(choices.getByLabelText('Off'));
    expect((await screen.findByRole('alert')).textContent).toBe('emailNotifications: not allowed');
    expect((choices.getByLabelText('Daily digest') as HTMLInputElement).checked).toBe(true);
  });

  it('is disabled with a line saying so on a server without e-mail', async () => {
    server(false);
    render(<EmailSection account={account()} />);
    expect((await screen.findByTestId('email-off')).textContent).toMatch(/E-mail is not set up on this server/);
    expect(screen.getByLabelText('E-mail address').matches(':disabled')).toBe(true);
    expect(screen.getByLabelText('Daily digest').matches(':disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Add address' }).matches(':disabled')).toBe(true);
  });
});
