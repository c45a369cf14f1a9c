import type { Message } from '@im/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCatchUp } from '../../state/catch-up.ts';
import { getState, initialState, setState } from '../../state/store.ts';
import { alice, bob, group, message, panel, users } from '../../test/fixtures.ts';
import { fakeServer, type SeenRequest } from '../../test/server.ts';
import { SearchLauncher } from './SearchLauncher.tsx';
import { apiPath } from '@im/api-client';

const general = panel(1);
const inGeneral = (seq: number, content: string): Message => ({
  ...message(seq, seq % 2 ? bob : alice, content),
  converseId: general.converseId,
});
const older = inGeneral(7, 'The pineapple plan, as discussed on Monday');
const newer = inGeneral(90, 'who brings the PINEAPPLE?');

let requests: SeenRequest[];
beforeEach(() => {
  setState({
    ...initialState(),
    me: alice,
    users,
    groups: { [group().id]: group({ panels: [general] }) },
    groupOrder: [group().id],
  });
  requests = fakeServer((req) => {
    const url = new URL(req.url, 'http://app');
    if (url.pathname === apiPath('chat.search'))
      return { body: url.searchParams.get('q') === 'pineapple' ? [newer, older] : [] };
    // Opening a result loads the page around it.
    if (url.pathname.endsWith('/messages')) return { body: [older] };
    return { status: 404, body: { error: { code: 'IM_ERR_NOT_FOUND', message: 'no' } } };
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
  window.history.replaceState(null, '', '/');
});

const openWithShortcut = () => fireEvent.keyDown(document.body, { key: 'F', ctrlKey: true, shiftKey: true });

describe('message search', () => {
  it('opens with Ctrl+Shift+F and lists who said what where, with the match highlighted', async () => {
    render(<SearchLauncher />);
    expect(screen.queryByRole('dialog')).toBeNull();
    openWithShortcut();
    const box = screen.getByRole('combobox', { name: 'Search messages' });
    expect(document.activeElement).toBe(box);
    fireEvent.change(box, { target: { value: 'pineapple' } });
    const results = await screen.findAllByTestId('search-result');
    expect(results).toHaveLength(2);
    const first = within(results[0]!);
    expect(first.getByText('Alice')).toBeTruthy();
    expect(first.getByText('#general · Team')).toBeTruthy();
    // The match keeps the message's own spelling.
    expect(results[0]!.querySelector('mark')!.textContent).toBe('PINEAPPLE');
    expect(within(results[1]!).getByTestId('search-snippet').textContent).toBe(older.content);
    expect(results[1]!.querySelector('time')!.getAttribute('datetime')).toBe(older.createdAt);
    const searches = requests.filter((r) => r.url.startsWith(apiPath('chat.search')));
    expect(new URL(searches.at(-1)!.url, 'http://app').searchParams.get('q')).toBe('pineapple');
    // Dates in filters are my days: the server is told how far from UTC I am.
    expect(new URL(searches.at(-1)!.url, 'http://app').searchParams.get('tzOffset')).toBe(
      String(-new Date().getTimezoneOffset()),
    );
  });

  it('shows typed filters as chips that can be removed, and sends them in q', async () => {
    render(<SearchLauncher />);
    openWithShortcut();
    const box = screen.getByRole<HTMLInputElement>('combobox');
    fireEvent.change(box, { target: { value: 'pineapple from:@bob has:image' } });
    const chips = screen.getAllByTestId('search-chip');
    expect(chips.map((c) => c.firstChild!.textContent)).toEqual(['from:@bob', 'has:image']);
    await waitFor(() =>
      expect(
        requests.some((r) => new URL(r.url, 'http://app').searchParams.get('q') === 'pineapple from:@bob has:image'),
      ).toBe(true),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove filter has:image' }));
    expect(box.value).toBe('pineapple from:@bob');
    expect(screen.getAllByTestId('search-chip')).toHaveLength(1);
  });

  it('offers names while from: or in: is typed, and Enter puts the chosen one in', () => {
    render(<SearchLauncher />);
    openWithShortcut();
    const box = screen.getByRole<HTMLInputElement>('combobox');
    fireEvent.change(box, { target: { value: 'plan from:b', selectionStart: 11 } });
    const offered = screen.getAllByTestId('search-completion');
    expect(offered.map((o) => o.firstChild!.textContent)).toEqual([`@${bob.username}`]);
    expect(screen.getByRole('listbox', { name: 'Suggestions' })).toBeTruthy();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe(`plan from:@${bob.username} `);
    fireEvent.change(box, { target: { value: 'in:#gen', selectionStart: 7 } });
    expect(screen.getAllByTestId('search-completion').map((o) => o.firstChild!.textContent)).toEqual(['#general']);
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('in:#general ');
  });

  it('says so when nothing matches', async () => {
    render(<SearchLauncher />);
    openWithShortcut();
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'durian' } });
    expect((await screen.findByRole('status')).textContent).toContain('No messages contain “durian”');
  });

  it('moves with the arrows and opens the chosen message in its converse with Enter', async () => {
    render(<SearchLauncher />);
    openWithShortcut();
    const box = screen.getByRole('combobox');
    fireEvent.change(box, { target: { value: 'pineapple' } });
    const results = await screen.findAllByTestId('search-result');
    expect(results[0]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(results[1]!.getAttribute('aria-selected')).toBe('true');
    expect(box.getAttribute('aria-activedescendant')).toBe(results[1]!.id);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(getState().route).toEqual({ name: 'group', groupId: group().id, converseId: general.converseId });
    expect(window.location.pathname).toBe(`/g/${group().id}/${general.converseId}`);
    expect(useCatchUp.getState().places[general.converseId]?.focus).toEqual({ seq: 7, highlight: true });
    await waitFor(() => expect(getState().converses[general.converseId]?.items).toEqual([older]));
    expect(
      requests.some((r) => r.url === apiPath('chat.history', { converseId: general.converseId, around: 7, limit: 50 })),
    ).toBe(true);
  });
});
