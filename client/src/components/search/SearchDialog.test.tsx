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
  setState({ ...initialState(), me: alice, users, groups: { [group().id]: group({ panels: [general] }) } });
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

const openWithShortcut = () => fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });

describe('message search', () => {
  it('opens with Ctrl+K and lists who said what where, with the match highlighted', async () => {
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
