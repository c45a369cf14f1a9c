import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCatchUp } from '../../state/catch-up.ts';
import { emptyConverse } from '../../state/messages.ts';
import { initialState, setState } from '../../state/store.ts';
import { alice, bob, message, users } from '../../test/fixtures.ts';
import { apiError, fakeServer } from '../../test/server.ts';
import { PinsPopover } from './PinsButton.tsx';
import { apiPath } from '@im/api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
});

const pinnedBy = (at: string) => ({ by: bob.id, at });
const older = { ...message(2, alice, 'The agenda'), pinned: pinnedBy('2026-11-20T10:00:00.000Z') };
const newer = { ...message(7, bob, 'Meeting link'), pinned: pinnedBy('2026-11-20T11:00:00.000Z') };

describe('PinsPopover', () => {
  it("lists the converse's pins in the server's order and jumps to one", async () => {
    setState({ me: alice, users, converses: { [older.converseId]: { ...emptyConverse(), items: [older, newer] } } });
    const requests = fakeServer(() => ({ body: [newer, older] }));
    const onClose = vi.fn();
    render(<PinsPopover converseId={older.converseId} onClose={onClose} />);
    await waitFor(() => expect(screen.getAllByTestId('pinned-message')).toHaveLength(2));
    expect(requests[0]?.url).toBe(apiPath('chat.pins', { converseId: older.converseId }));
    expect(screen.getAllByTestId('pinned-message').map((b) => b.textContent)).toEqual([
      expect.stringContaining('Meeting link'),
      expect.stringContaining('The agenda'),
    ]);
    fireEvent.click(screen.getAllByTestId('pinned-message')[1]!);
    expect(onClose).toHaveBeenCalled();
    expect(useCatchUp.getState().places[older.converseId]?.focus).toEqual({ seq: 2, highlight: true });
  });

  it('leaves out a message unpinned since, and says when nothing is pinned', async () => {
    setState({
      me: alice,
      users,
      converses: { [older.converseId]: { ...emptyConverse(), items: [{ ...older, pinned: undefined }] } },
    });
    fakeServer(() => ({ body: [older] }));
    render(<PinsPopover converseId={older.converseId} onClose={() => undefined} />);
    expect(await screen.findByText('Nothing is pinned here yet.')).toBeTruthy();
  });

  it('shows why the pins could not be loaded', async () => {
    fakeServer(() => apiError(404, 'IM_ERR_NOT_FOUND', 'Converse not found'));
    render(<PinsPopover converseId={older.converseId} onClose={() => undefined} />);
    await waitFor(() => expect(screen.getByText(/not found/i)).toBeTruthy());
  });
});
