import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialState, setState } from '../../state/store.ts';
import { alex, alice, bob } from '../../test/fixtures.ts';
import { fakeServer } from '../../test/server.ts';
import { Avatar } from '../common/Avatar.tsx';
import { AuthorName } from '../messages/AuthorName.tsx';
import { NewMessageDialog } from './NewMessageDialog.tsx';
import { apiPath } from '@im/api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
});

const DM = { id: 'd'.repeat(24), type: 'dm', memberIds: [alice.id, bob.id] };

describe('profile card', () => {
  it("opens from an author's name with their names and presence, and messages them", async () => {
    setState({ me: alice, presence: { [bob.id]: true } });
    const seen = fakeServer((req) =>
      req.url === apiPath('chat.listDms') ? { body: DM } : { body: { online: [bob.id] } },
    );
    render(<AuthorName author={bob} />);
    await userEvent.click(screen.getByRole('button', { name: bob.nickname }));
    const card = screen.getByRole('dialog', { name: `Profile of ${bob.nickname}` });
    expect(within(card).getByText(`@${bob.username}`)).toBeTruthy();
    expect(within(card).getByTestId('profile-presence').textContent).toBe('Online');
    await userEvent.click(within(card).getByRole('button', { name: 'Message' }));
    await vi.waitFor(() =>
      expect(seen.some((r) => r.method === 'POST' && r.url === apiPath('chat.listDms'))).toBe(true),
    );
    expect(seen.find((r) => r.url === apiPath('chat.listDms'))!.body).toEqual({ userId: bob.id });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes on Escape and on a click outside, and offers no "Message" to myself', async () => {
    setState({ me: alice, presence: { [alice.id]: true } });
    render(
      <>
        <AuthorName author={alice} />
        <p>elsewhere</p>
      </>,
    );
    const name = screen.getByRole('button', { name: alice.nickname });
    await userEvent.click(name);
    expect(within(screen.getByRole('dialog')).queryByRole('button', { name: 'Message' })).toBeNull();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(name);
    await userEvent.click(screen.getByText('elsewhere'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('new message', () => {
  it('finds people by name, leaving out bots and me, and opens the DM from the keyboard', async () => {
    setState({ me: alice });
    const robot = { ...alex, id: 'b'.repeat(24), username: 'alexbot', bot: true as const };
    const seen = fakeServer((req) => {
      if (req.url.startsWith(apiPath('user.search'))) return { body: [alex, robot, alice] };
      if (req.url === apiPath('chat.listDms')) return { body: { ...DM, memberIds: [alice.id, alex.id] } };
      return { body: { online: [] } };
    });
    const onClose = vi.fn();
    render(<NewMessageDialog onClose={onClose} />);
    await userEvent.type(screen.getByRole('combobox'), 'al');
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.querySelector('.user-result-name')?.textContent)).toEqual([alex.nickname]);
    expect(seen.find((r) => r.url.startsWith(apiPath('user.search')))!.url).toBe(
      apiPath('user.search', { q: 'al', limit: 10 }),
    );
    await userEvent.keyboard('{Enter}');
    expect(onClose).toHaveBeenCalled();
    await vi.waitFor(() =>
      expect(seen.find((r) => r.url === apiPath('chat.listDms'))?.body).toEqual({ userId: alex.id }),
    );
  });

  it('says so when nobody is found', async () => {
    setState({ me: alice });
    fakeServer(() => ({ body: [] }));
    render(<NewMessageDialog onClose={() => undefined} />);
    await userEvent.type(screen.getByRole('combobox'), 'zz');
    expect((await screen.findByRole('status')).textContent).toBe('Nobody found by that name.');
  });
});

describe('avatar', () => {
  it("shows the picture of someone's own file through a signed URL, and initials otherwise", async () => {
    const fileId = 'f'.repeat(24);
    fakeServer((req) =>
      req.url === apiPath('file.url', { fileId, variant: 'file' })
        ? { body: { url: `/files/signed/${fileId}`, expiresAt: new Date(Date.now() + 3600_000).toISOString() } }
        : { status: 404, body: {} },
    );
    render(
      <>
        <Avatar user={{ ...bob, avatar: apiPath('file.download', { fileId }) }} />
        <Avatar user={alice} />
        <Avatar user={{ ...bob, avatar: apiPath('file.download', { fileId }) }} name="Jenkins" />
      </>,
    );
    const [withPicture, initials, hook] = screen.getAllByTestId('avatar');
    await vi.waitFor(() =>
      expect(withPicture!.querySelector('img')?.getAttribute('src')).toBe(`/files/signed/${fileId}`),
    );
    expect(initials!.querySelector('img')).toBeNull();
    expect(initials!.querySelector('[data-initials]')?.getAttribute('data-initials')).toBe('AL');
    expect(hook!.querySelector('img')).toBeNull();
  });
});
