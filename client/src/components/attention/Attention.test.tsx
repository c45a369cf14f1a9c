import type { Notification, UnreadEntry } from '@im/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyUnreadEntry, defaultLevel, heardBadge, isMuted, useAttention } from '../../state/attention.ts';
import { useCatchUp } from '../../state/catch-up.ts';
import { initialState, setState, useStore } from '../../state/store.ts';
import { unreadTotal } from '../../state/title.ts';
import { groupBadge } from '../../state/unread.ts';
import { alice, bob, group, panel, users } from '../../test/fixtures.ts';
import { fakeServer } from '../../test/server.ts';
import { ConverseNotificationsMenu } from './ConverseNotificationsMenu.tsx';
import { InboxBell } from './InboxBell.tsx';
import { apiPath } from '@im/api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
  useAttention.setState({ levels: {}, inboxUnread: 0, inbox: null });
});

const general = panel(1);
const entry = (seq: number, change: Partial<Notification> = {}): Notification => ({
  id: `n${String(seq).padStart(23, '0')}`,
  type: 'mention',
  kind: 'mention',
  converseId: general.converseId,
  messageId: `m${String(seq).padStart(23, '0')}`,
  seq,
  authorId: bob.id,
  preview: `message ${seq}`,
  createdAt: new Date(Date.UTC(2026, 10, 20, 9, seq)).toISOString(),
  read: false,
  ...change,
});
const counts = (converseId: string, unread: number, mentions: number): UnreadEntry => ({
  converseId,
  lastSeq: 10,
  readSeq: 10 - unread,
  unread,
  mentions,
});

describe('levels, mutes and badges', () => {
  it('defaults to all in DMs and small groups, mentions in groups of 100 or more', () => {
    const small = group();
    const large = group({ id: 'h'.repeat(24), memberCount: 100, panels: [panel(2)] });
    const app = { groups: { [small.id]: small, [large.id]: large }, dms: {} };
    expect(defaultLevel(panel(1).converseId, app)).toBe('all');
    expect(defaultLevel(panel(2).converseId, app)).toBe('mentions');
  });

  it('a muted converse keeps only its mentions in the badges, the group rail and the title', () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    expect(isMuted({ level: 'none', muteUntil: null }, now)).toBe(true);
    expect(isMuted({ level: 'all', muteUntil: '2026-11-20T11:00:00Z' }, now)).toBe(true);
    expect(isMuted({ level: 'all', muteUntil: '2026-11-20T09:00:00Z' }, now)).toBe(false);
    expect(heardBadge({ unread: 5, mentions: 1 }, true)).toEqual({ unread: 0, mentions: 1 });
    const g = group({ panels: [panel(1), panel(2)] });
    const unread = {
      [panel(1).converseId]: counts(panel(1).converseId, 5, 1),
      [panel(2).converseId]: counts(panel(2).converseId, 3, 0),
    };
    const muted = (id: string) => id === panel(1).converseId;
    expect(groupBadge(g, unread, muted)).toEqual({ unread: 3, mentions: 1 });
    expect(unreadTotal(unread, muted)).toBe(4);
  });

  it('draws again when a mute ends, so the converse is no longer muted', () => {
    vi.useFakeTimers();
    try {
      const until = new Date(Date.now() + 60_000).toISOString();
      useAttention.setState({ levels: { [general.converseId]: { level: 'all', muteUntil: until } } });
      const held = useAttention.getState().levels;
      expect(isMuted(held[general.converseId])).toBe(true);
      vi.advanceTimersByTime(60_100);
      const now = useAttention.getState().levels;
      expect(now).not.toBe(held);
      expect(isMuted(now[general.converseId])).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('mark as unread puts the divider above the message and the counts back', () => {
    applyUnreadEntry(counts(general.converseId, 3, 1));
    expect(useStore.getState().unread[general.converseId]).toEqual(counts(general.converseId, 3, 1));
    expect(useCatchUp.getState().dividers[general.converseId]).toBe(8);
  });
});

describe('ConverseNotificationsMenu', () => {
  it('shows the level in force and sets another, or a mute for an hour', async () => {
    const g = group();
    setState({ me: alice, groups: { [g.id]: g } });
    const requests = fakeServer((req) => ({ body: { level: (req.body as { level: string }).level, muteUntil: null } }));
    render(<ConverseNotificationsMenu converseId={general.converseId} />);
    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(screen.getByRole('menuitemradio', { name: 'All messages' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Mentions only' }));
    await waitFor(() => expect(useAttention.getState().levels[general.converseId]?.level).toBe('mentions'));
    expect(requests[0]).toEqual({
      method: 'PUT',
      url: apiPath('push.converseLevel', { converseId: general.converseId }),
      body: { level: 'mentions', muteUntil: null },
    });

    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    const before = Date.now();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Mute for 1 hour' }));
    await waitFor(() => expect(requests).toHaveLength(2));
    const sent = requests[1]!.body as { level: string; muteUntil: string };
    expect(sent.level).toBe('mentions');
    const ahead = Date.parse(sent.muteUntil) - before;
    expect(ahead).toBeGreaterThan(3_500_000);
    expect(ahead).toBeLessThanOrEqual(3_600_000 + 5_000);
  });
});

describe('InboxBell', () => {
  it('shows the unread count, lists entries of every type, jumps to one and marks all read', async () => {
    const g = group();
    setState({ me: alice, users, groups: { [g.id]: g } });
    useAttention.setState({ inboxUnread: 2 });
    const items = [
      entry(3, { type: 'reminder', kind: 'reminder', authorId: alice.id }),
      entry(2, { type: 'reply', kind: 'reply' }),
      entry(1, { read: true }),
    ];
    const requests = fakeServer((req) =>
      req.url === apiPath('push.inbox', { limit: 50 })
        ? { body: { items, nextCursor: null } }
        : { body: { unread: 0 } },
    );
    render(<InboxBell />);
    expect(screen.getByTestId('inbox-count').textContent).toBe('2');
    fireEvent.click(screen.getByRole('button', { name: 'Inbox, 2 unread' }));
    await waitFor(() => expect(screen.getAllByTestId('inbox-entry')).toHaveLength(3));
    const shown = screen.getAllByTestId('inbox-entry');
    expect(shown.map((b) => b.getAttribute('data-type'))).toEqual(['reminder', 'reply', 'mention']);
    expect(within(shown[1]!).getByText(/replied in a thread you follow/)).toBeTruthy();
    expect(within(shown[1]!).getByText(/#general · Team/)).toBeTruthy();

    fireEvent.click(screen.getByTestId('inbox-mark-all-read'));
    await waitFor(() => expect(useAttention.getState().inboxUnread).toBe(0));
    expect(requests.find((r) => r.method === 'POST')).toEqual({
      method: 'POST',
      url: apiPath('push.markRead'),
      body: {},
    });
    expect(screen.queryByTestId('inbox-count')).toBeNull();

    fireEvent.click(screen.getAllByTestId('inbox-entry')[1]!);
    expect(useCatchUp.getState().places[general.converseId]?.focus).toEqual({ seq: 2, highlight: true });
    expect(useStore.getState().route).toEqual({ name: 'group', groupId: g.id, converseId: general.converseId });
  });
});
