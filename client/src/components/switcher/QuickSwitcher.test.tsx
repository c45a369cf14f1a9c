import type { DmConverse, PublicUser } from '@im/protocol';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetAccountState } from '../../state/account-state.ts';
import { getState, initialState, setState } from '../../state/store.ts';
import { alice, bob, group, panel, users } from '../../test/fixtures.ts';
import { fakeServer } from '../../test/server.ts';
import { SearchLauncher } from '../search/SearchLauncher.tsx';
import { useRecentConverses } from './recent-converses.ts';
import { SwitcherLauncher } from './SwitcherLauncher.tsx';

const general = panel(1);
const design = panel(2, { name: 'design-notes' });
const random = panel(3, { name: 'random' });
const kai: PublicUser = { id: 'f'.repeat(24), username: 'kai', nickname: '', createdAt: '2026-01-01T00:00:00.000Z' };
const dmWithBob: DmConverse = { id: 'e'.repeat(24), type: 'dm', memberIds: [alice.id, bob.id] };

beforeEach(() => {
  setState({
    ...initialState(),
    me: alice,
    users,
    groups: { [group().id]: group({ panels: [general, design, random] }) },
    groupOrder: [group().id],
    dms: { [dmWithBob.id]: dmWithBob },
    dmOrder: [dmWithBob.id],
    unread: {
      [random.converseId]: { converseId: random.converseId, lastSeq: 4, readSeq: 1, unread: 3, mentions: 0 },
    },
  });
  useRecentConverses.setState({ ids: [] });
  // Kai is a member of the team who has spoken nowhere yet: the switcher loads the member list to find him.
  fakeServer((req) =>
    req.url.includes('/members')
      ? { body: { items: [{ user: kai, role: 'member', roleIds: [], joinedAt: kai.createdAt }], nextCursor: null } }
      : { body: [] },
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  // Closes both dialogs and forgets the visits, as signing out does.
  forgetAccountState();
  setState(initialState());
  window.history.replaceState(null, '', '/');
});

const open = () => {
  render(
    <>
      <SwitcherLauncher />
      <SearchLauncher />
    </>,
  );
  fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
  return screen.getByRole<HTMLInputElement>('combobox', { name: 'Jump to a panel, direct message or person' });
};
const names = () => screen.getAllByTestId('switcher-item').map((o) => o.querySelector('.switcher-name')!.textContent);

describe('quick switcher', () => {
  it('opens with Ctrl+K on recent converses first, unread ones marked', () => {
    setState({ route: { name: 'group', groupId: group().id, converseId: design.converseId } });
    const box = open();
    expect(document.activeElement).toBe(box);
    expect(box.getAttribute('aria-expanded')).toBe('true');
    // The converse on screen was visited last; then the unread panel; then the rest in sidebar order.
    expect(names().slice(0, 3)).toEqual(['design-notes', 'random', 'general']);
    const unread = screen.getAllByTestId('switcher-item')[1]!;
    expect(unread.getAttribute('aria-label')).toBe('#random in Team, 3 unread messages');
    expect(unread.className).toContain('unread');
    // People I share a group with but have no DM with are there too.
    expect(names()).toContain('Alexandra');
    expect(names().filter((n) => n === 'Bob')).toHaveLength(1);
  });

  it('lists the members of my groups, loading their lists when it opens', async () => {
    const box = open();
    fireEvent.change(box, { target: { value: 'kai' } });
    await waitFor(() => expect(names()).toEqual(['kai']));
  });

  it('matches names loosely, moves with the arrows and jumps with Enter', () => {
    const box = open();
    fireEvent.change(box, { target: { value: 'dsgn' } });
    expect(names()[0]).toBe('design-notes');
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getAllByTestId('switcher-item')[0]!.id);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(getState().route).toEqual({ name: 'group', groupId: group().id, converseId: design.converseId });
  });

  it('ends with "Search messages for …", which opens message search with the words', () => {
    const box = open();
    fireEvent.change(box, { target: { value: 'pineapple' } });
    const last = screen.getByTestId('switcher-search');
    expect(last.textContent).toBe('Search messages for “pineapple”');
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(last.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'Enter' });
    const search = screen.getByRole<HTMLInputElement>('combobox', { name: 'Search messages' });
    expect(search.value).toBe('pineapple');
  });

  it('goes to my DM with a person, and offers to start one with someone else', () => {
    const box = open();
    fireEvent.change(box, { target: { value: 'bob' } });
    expect(names()[0]).toBe('Bob');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(getState().route).toEqual({ name: 'dm', converseId: dmWithBob.id });
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'alex' } });
    expect(names()).toEqual(['Alexandra']);
    expect(screen.getAllByTestId('switcher-item')[0]!.getAttribute('aria-label')).toBe(
      'Alexandra, start a direct message',
    );
  });
});
