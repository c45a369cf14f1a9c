import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, type FakeAnswer } from '../../test/server.ts';
import { UnsubscribePage } from './UnsubscribePage.tsx';
import { apiPath } from '@im/api-client';

function server(answer: FakeAnswer) {
  return fakeServer((req) =>
    req.url.startsWith(apiPath('user.mailUnsubscribe')) ? answer : apiError(404, 'IM_ERR_NOT_FOUND'),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('UnsubscribePage', () => {
  it('changes nothing until the button is pressed, then turns the e-mails off with the token', async () => {
    const seen = server({ status: 204 });
    render(<UnsubscribePage token="u+1" />);
    expect(seen.length).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Turn these e-mails off' }));
    const done = await screen.findByTestId('unsubscribed');
    await waitFor(() => expect(document.activeElement).toBe(done));
    expect(seen.map((r) => [r.method, r.url])).toEqual([['POST', apiPath('user.mailUnsubscribe', { token: 'u+1' })]]);
  });

  it("shows the server's reason for a link it does not take", async () => {
    server(apiError(400, 'IM_ERR_LINK_INVALID', 'This link is not valid'));
    render(<UnsubscribePage token="forged" />);
    fireEvent.click(screen.getByRole('button', { name: 'Turn these e-mails off' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This link is not valid');
    expect(screen.queryByTestId('unsubscribed')).toBeNull();
  });
});
