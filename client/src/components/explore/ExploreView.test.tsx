import type { DirectoryGroup } from '@im/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getState, initialState, setState } from '../../state/store.ts';
import { group, panel } from '../../test/fixtures.ts';
import { apiError, fakeServer, type FakeAnswer, type SeenRequest } from '../../test/server.ts';
import { ExploreView } from './ExploreView.tsx';
import { apiPath } from '@im/api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
  window.history.replaceState(null, '', '/');
});

const entry = (n: number, change: Partial<DirectoryGroup> = {}): DirectoryGroup => ({
  id: `${n}`.padStart(24, '0'),
  name: `Group ${n}`,
  memberCount: 10 - n,
  language: 'en',
  ...change,
});

const gardeners = entry(1, { name: 'Gardeners', memberCount: 1, description: 'Seeds, soil and <b>sun</b>' });
const chess = entry(2, { name: 'Chess club', memberCount: 1234 });

/** The directory answers by URL; joins answer the group. */
function directory(answer: (url: URL) => FakeAnswer, join?: (req: SeenRequest) => FakeAnswer) {
  return fakeServer((req) => {
    const url = new URL(req.url, 'http://app');
    if (url.pathname === apiPath('group.directory')) return answer(url);
    return join?.(req) ?? apiError(404, 'IM_ERR_NOT_FOUND');
  });
}

const directoryCalls = (requests: SeenRequest[]) =>
  requests
    .filter((r) => r.url.startsWith(apiPath('group.directory')))
    .map((r) => new URL(r.url, 'http://app').searchParams);

const items = () => screen.getAllByTestId('directory-group');

describe('ExploreView', () => {
  it('lists public groups with their member counts and descriptions, as text', async () => {
    directory(() => ({ body: { items: [gardeners, chess], nextCursor: null } }));
    render(<ExploreView />);
    await screen.findByRole('heading', { name: 'Gardeners' });
    const [first, second] = items();
    expect(within(first!).getByTestId('member-count').textContent).toBe('1 member');
    expect(within(first!).getByTestId('description').textContent).toBe('Seeds, soil and <b>sun</b>');
    expect(within(second!).getByTestId('member-count').textContent).toBe('1,234 members');
    expect(within(second!).queryByTestId('description')).toBeNull();
    expect(screen.getByRole('list', { name: 'Public groups' })).toBeTruthy();
  });

  it('searches once typing pauses, with the words as q', async () => {
    const requests = directory((url) => ({
      body: { items: url.searchParams.get('q') === 'gar' ? [gardeners] : [gardeners, chess], nextCursor: null },
    }));
    render(<ExploreView />);
    await screen.findByRole('heading', { name: 'Chess club' });
    const box = screen.getByRole('searchbox', { name: 'Search public groups' });
    for (const value of ['g', 'ga', 'gar']) fireEvent.change(box, { target: { value } });
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Chess club' })).toBeNull());
    expect(directoryCalls(requests).map((p) => p.get('q'))).toEqual([null, 'gar']);
    expect(directoryCalls(requests)[1]!.get('limit')).toBe('20');
  });

  it('says when nothing matches, and when there are no public groups at all', async () => {
    directory((url) => ({ body: { items: [], nextCursor: null, q: url.searchParams.get('q') } }));
    render(<ExploreView />);
    expect((await screen.findByText(/^No public groups yet/)).getAttribute('role')).toBe('status');
    fireEvent.change(screen.getByLabelText('Search public groups'), { target: { value: 'zebra' } });
    await screen.findByText('No public groups match “zebra”.');
  });

  it('loads more with the cursor, appending without repeats', async () => {
    const requests = directory((url) =>
      url.searchParams.get('cursor') === 'next'
        ? { body: { items: [chess, entry(3)], nextCursor: null } }
        : { body: { items: [gardeners, chess], nextCursor: 'next' } },
    );
    render(<ExploreView />);
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await screen.findByRole('heading', { name: 'Group 3' });
    expect(items().map((li) => within(li).getByRole('heading').textContent)).toEqual([
      'Gardeners',
      'Chess club',
      'Group 3',
    ]);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(directoryCalls(requests).map((p) => p.get('cursor'))).toEqual([null, 'next']);
  });

  it('shows a failure with Try again, which asks again', async () => {
    let fail = true;
    directory(() =>
      fail ? apiError(500, 'IM_ERR_INTERNAL', 'Internal error') : { body: { items: [chess], nextCursor: null } },
    );
    render(<ExploreView />);
    expect((await screen.findByRole('alert')).textContent).toBe('Could not load the directory: Internal error');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { name: 'Chess club' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('joins a group: it is added to my groups and opened on its first panel', async () => {
    const joined = group({ id: gardeners.id, name: 'Gardeners', visibility: 'public', panels: [panel(1), panel(2)] });
    const requests = directory(
      () => ({ body: { items: [gardeners, chess], nextCursor: null } }),
      () => ({ body: joined }),
    );
    render(<ExploreView />);
    fireEvent.click(await screen.findByRole('button', { name: 'Join Gardeners' }));
    await waitFor(() =>
      expect(getState().route).toEqual({ name: 'group', groupId: joined.id, converseId: panel(1).converseId }),
    );
    expect(requests.at(-1)).toMatchObject({ method: 'POST', url: apiPath('group.join', { groupId: gardeners.id }) });
    expect(getState().groups[joined.id]).toEqual(joined);
    expect(getState().groupOrder).toEqual([joined.id]);
    expect(window.location.pathname).toBe(`/g/${joined.id}/${panel(1).converseId}`);
  });

  it('offers Open instead of Join for a group I am in', async () => {
    const mine = group({ id: chess.id, name: 'Chess club', visibility: 'public' });
    setState({ groups: { [mine.id]: mine }, groupOrder: [mine.id] });
    const requests = directory(() => ({ body: { items: [gardeners, chess], nextCursor: null } }));
    render(<ExploreView />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open Chess club' }));
    expect(screen.queryByRole('button', { name: 'Join Chess club' })).toBeNull();
    expect(getState().route).toEqual({ name: 'group', groupId: mine.id, converseId: mine.panels[0]!.converseId });
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('says why a join was refused, in that group', async () => {
    directory(
      () => ({ body: { items: [gardeners, chess], nextCursor: null } }),
      (req) =>
        req.url.includes(gardeners.id)
          ? apiError(403, 'IM_ERR_BANNED', 'Banned')
          : apiError(404, 'IM_ERR_NOT_FOUND', 'Not found'),
    );
    render(<ExploreView />);
    fireEvent.click(await screen.findByRole('button', { name: 'Join Gardeners' }));
    fireEvent.click(screen.getByRole('button', { name: 'Join Chess club' }));
    const [first, second] = items();
    expect((await within(first!).findByRole('alert')).textContent).toBe('You are banned from this group.');
    expect((await within(second!).findByRole('alert')).textContent).toBe('This group is no longer public.');
    expect(getState().groupOrder).toEqual([]);
    expect(getState().route).toEqual({ name: 'home' });
  });
});
