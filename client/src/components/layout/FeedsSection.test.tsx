import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getState, initialState, setState } from '../../state/store.ts';
import { alice, bob, group, GROUP_ID, panel } from '../../test/fixtures.ts';
import { apiError, fakeServer } from '../../test/server.ts';
import { FeedsSection, feedChoices } from './FeedsSection.tsx';
import { apiPath } from '@im/api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
});

const DM = 'e'.repeat(24);
const team = group({ panels: [panel(1), panel(2, { name: 'news' })] });
const origin = window.location.origin;

/** Alice in Team (two panels) and a DM with Bob, looking at #news. */
function start() {
  setState({
    me: alice,
    users: { [alice.id]: alice, [bob.id]: bob },
    groups: { [GROUP_ID]: team },
    groupOrder: [GROUP_ID],
    dms: { [DM]: { id: DM, type: 'dm', memberIds: [alice.id, bob.id] } },
    dmOrder: [DM],
    route: { name: 'group', groupId: GROUP_ID, converseId: panel(2).converseId },
  });
}

/** Tokens issued in turn, one per POST. */
function issuing(...tokens: string[]) {
  return fakeServer(() => ({ body: { token: tokens.shift() } }));
}

const feedUrl = () => (screen.getByTestId('feed-url') as HTMLInputElement).value;

describe('FeedsSection', () => {
  it('makes a feed link and shows it for the converse on screen', async () => {
    start();
    const requests = issuing('tok-1');
    render(<FeedsSection />);
    expect(screen.queryByTestId('feed-url')).toBeNull();
    expect(screen.getByText(/making a new link revokes the previous one/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create feed link' }));

    await screen.findByTestId('feed-url');
    expect(requests).toEqual([{ method: 'POST', url: apiPath('user.issueFeedToken'), body: undefined }]);
    expect(feedUrl()).toBe(`${origin}/feeds/tok-1/converses/${panel(2).converseId}.atom`);
    expect(getState().feedToken).toBe('tok-1');
    const select = screen.getByLabelText('Conversation') as HTMLSelectElement;
    expect(select.selectedOptions[0]!.textContent).toBe('Team › #news (open now)');
    expect(screen.getByRole('button', { name: 'Copy atom feed link' })).toBeTruthy();
  });

  it('offers every panel and DM, and the link follows the choice', async () => {
    start();
    setState({ feedToken: 'tok-1' });
    render(<FeedsSection />);
    const select = screen.getByLabelText('Conversation') as HTMLSelectElement;
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Team › #general', 'Team › #news (open now)', 'Direct messages with Bob']);
    fireEvent.change(select, { target: { value: DM } });
    expect(feedUrl()).toBe(`${origin}/feeds/tok-1/converses/${DM}.atom`);
  });

  it('replaces the link: the new token shows in place of the old', async () => {
    start();
    setState({ feedToken: 'tok-1' });
    issuing('tok-2');
    render(<FeedsSection />);
    fireEvent.click(screen.getByRole('button', { name: 'Replace feed link' }));
    await vi.waitFor(() => expect(feedUrl()).toContain('/feeds/tok-2/'));
    expect(getState().feedToken).toBe('tok-2');
  });

  it('shows a failure and keeps the link it had', async () => {
    start();
    setState({ feedToken: 'tok-1' });
    fakeServer(() => apiError(429, 'IM_ERR_RATE_LIMITED', 'Too many requests'));
    render(<FeedsSection />);
    fireEvent.click(screen.getByRole('button', { name: 'Replace feed link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests');
    expect(feedUrl()).toContain('/feeds/tok-1/');
  });

  it('says there is nothing to follow yet without groups or DMs', async () => {
    setState({ me: alice });
    issuing('tok-1');
    render(<FeedsSection />);
    fireEvent.click(screen.getByRole('button', { name: 'Create feed link' }));
    await screen.findByText('Join a group or start a conversation to follow it here.');
    expect(screen.queryByTestId('feed-url')).toBeNull();
  });
});

describe('feedChoices', () => {
  it('lists panels in group order, then DMs named after the other person', () => {
    start();
    expect(feedChoices(getState()).map((c) => c.converseId)).toEqual([panel(1).converseId, panel(2).converseId, DM]);
  });
});
