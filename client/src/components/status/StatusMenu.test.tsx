import type { UserStatus } from '@im/protocol';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isDndNow } from '../../state/status.ts';
import { getState, initialState, setState } from '../../state/store.ts';
import { alice, bob, group, GROUP_ID } from '../../test/fixtures.ts';
import { fakeServer, type SeenRequest } from '../../test/server.ts';
import { MemberPanel } from '../groups/MemberPanel.tsx';
import { StatusMenu } from './StatusMenu.tsx';
import { apiPath } from '@im/api-client';

/** The server keeps the status it was sent (a partial change, as PATCH /api/users/me does). */
let stored: UserStatus;
let requests: SeenRequest[];

beforeEach(() => {
  stored = { dnd: false };
  setState({ me: alice, myStatus: stored });
  requests = fakeServer((req) => {
    const change = (req.body as { status: Partial<UserStatus> & { until?: string | null } }).status;
    const next: UserStatus = { ...stored, ...change } as UserStatus;
    if (change.dnd === false || next.until === null) delete next.until;
    for (const key of ['text', 'emoji', 'clearAt'] as const) if (!next[key]) delete next[key];
    stored = next;
    return { body: { ...alice, status: stored } };
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
});

const openMenu = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(screen.getByTestId('status-button'));
  return screen.getByRole('menu');
};

describe('the status menu on my user bar', () => {
  it('turns do not disturb on for an hour, shows it, and back to online', async () => {
    const user = userEvent.setup();
    render(<StatusMenu />);
    let menu = await openMenu(user);
    expect(within(menu).getByTestId('status-now').textContent).toBe('Online');
    const before = Date.now();
    await user.click(within(menu).getByRole('menuitem', { name: 'For 1 hour' }));
    const sent = requests.at(-1)!;
    expect(sent.method).toBe('PATCH');
    expect(sent.url).toBe(apiPath('user.me'));
    const { status } = sent.body as { status: { dnd: boolean; until: string } };
    expect(status.dnd).toBe(true);
    const until = Date.parse(status.until);
    expect(until - before).toBeGreaterThanOrEqual(3_600_000);
    expect(until - Date.now()).toBeLessThanOrEqual(3_600_000);
    await vi.waitFor(() => expect(getState().myStatus?.dnd).toBe(true));
    expect(isDndNow()).toBe(true);
    expect(screen.getByTestId('presence-dot').className).toBe('presence dnd');

    menu = await openMenu(user);
    expect(within(menu).getByTestId('status-now').textContent).toMatch(/^Do not disturb until /);
    await user.click(within(menu).getByRole('menuitem', { name: /Online/ }));
    expect((requests.at(-1)!.body as { status: unknown }).status).toEqual({ dnd: false });
    await vi.waitFor(() => expect(screen.getByTestId('presence-dot').className).toBe('presence online'));
  });

  it('"until I turn it off" sends no end', async () => {
    const user = userEvent.setup();
    render(<StatusMenu />);
    await user.click(within(await openMenu(user)).getByRole('menuitem', { name: 'Until I turn it off' }));
    expect((requests.at(-1)!.body as { status: unknown }).status).toEqual({ dnd: true, until: null });
  });

  it('sets a custom status with an emoji and a "clear after", shows it by my name, and clears it', async () => {
    const user = userEvent.setup();
    render(<StatusMenu />);
    await user.click(within(await openMenu(user)).getByRole('menuitem', { name: 'Set a custom status' }));
    const dialog = screen.getByRole('dialog', { name: 'Set a custom status' });
    await user.click(within(dialog).getByRole('button', { name: '🍜' }));
    await user.type(within(dialog).getByLabelText("What's happening?"), 'Lunch');
    await user.selectOptions(within(dialog).getByLabelText('Clear after'), '1 hour');
    await user.click(within(dialog).getByRole('button', { name: 'Save status' }));
    const { status } = requests.at(-1)!.body as { status: { text: string; emoji: string; clearAt: string } };
    expect(status.text).toBe('Lunch');
    expect(status.emoji).toBe('🍜');
    expect(Date.parse(status.clearAt) - Date.now()).toBeGreaterThan(59 * 60_000);
    await vi.waitFor(() => expect(screen.getByTestId('custom-status').textContent).toBe('🍜 Lunch'));
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(within(await openMenu(user)).getByRole('menuitem', { name: 'Clear custom status' }));
    expect((requests.at(-1)!.body as { status: unknown }).status).toEqual({ text: '', emoji: '' });
    await vi.waitFor(() => expect(screen.queryByTestId('custom-status')).toBeNull());
  });
});

describe('others’ status in the member list', () => {
  it('shows the red dot and the custom text of a member in do not disturb', () => {
    setState({
      presence: { [bob.id]: true },
      statuses: { [bob.id]: { online: true, dnd: true, text: 'Focus', emoji: '🎧' } },
      members: {
        [GROUP_ID]: {
          items: [{ user: bob, role: 'owner', roleIds: [], joinedAt: '2026-01-01T00:00:00.000Z' }],
          nextCursor: null,
          loading: false,
        },
      },
    });
    render(<MemberPanel group={group({})} />);
    const row = screen.getByTestId('member');
    expect(row.getAttribute('data-presence')).toBe('Do not disturb');
    expect(within(row).getByTestId('presence-dot').className).toBe('presence dnd');
    expect(within(row).getByTestId('custom-status').textContent).toBe('🎧 Focus');
  });
});
