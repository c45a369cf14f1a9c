import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer } from '../../test/server.ts';
import { ClaimAccountPage, claimProblem } from './ClaimAccountPage.tsx';
import { apiPath } from '@im/api-client';

const TOKEN = 'cl.aim-1';

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

afterEach(() => vi.unstubAllGlobals());

describe('ClaimAccountPage', () => {
  it('checks the username shape and the password twice before sending anything', () => {
    expect(claimProblem('', 'long enough', 'long enough')).toBeNull();
    expect(claimProblem('ok.name', 'long enough', 'long enough')).toBeNull();
    expect(claimProblem('no spaces', 'long enough', 'long enough')).toMatch(/3 to 32/);
    expect(claimProblem('', 'short', 'short')).toMatch(/at least 8/);
    const seen = fakeServer(() => ({ status: 200 }));
    render(<ClaimAccountPage token={TOKEN} />);
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    type('Password', 'long enough');
    type('Password again', 'long enougH');
    fireEvent.click(screen.getByRole('button', { name: 'Claim account' }));
    expect(screen.getByRole('alert').textContent).toBe('The two passwords differ.');
    expect(seen.length).toBe(0);
  });

  it("sends the token, the password and the new name, and shows the server's reason for a used link", async () => {
    const seen = fakeServer(() => apiError(410, 'IM_ERR_LINK_USED', 'This link was already used'));
    render(<ClaimAccountPage token={TOKEN} />);
    type('New username (optional)', ' dana ');
    type('Password', 'a new secret!');
    type('Password again', 'a new secret!');
    fireEvent.click(screen.getByRole('button', { name: 'Claim account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This link was already used');
    expect(seen).toEqual([
      {
        method: 'POST',
        url: apiPath('user.claim'),
        body: { token: TOKEN, password: 'a new secret!', username: 'dana' },
      },
    ]);
    expect(screen.getByRole('button', { name: 'Claim account' })).toBeTruthy();
  });

  it('says a link without its token is incomplete', () => {
    fakeServer(() => ({ status: 200 }));
    render(<ClaimAccountPage token="" />);
    expect(screen.getByRole('alert').textContent).toMatch(/no token/);
    expect(screen.queryByLabelText('Password')).toBeNull();
  });
});
