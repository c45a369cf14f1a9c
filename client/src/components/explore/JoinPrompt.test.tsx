import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getState, initialState, setState } from '../../state/store.ts';
import { group, GROUP_ID, panel } from '../../test/fixtures.ts';
import { apiError, fakeServer } from '../../test/server.ts';
import { JoinPrompt } from './JoinPrompt.tsx';
import { apiPath } from '@im/api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
  window.history.replaceState(null, '', '/');
});

describe('JoinPrompt (a link to a group I am not in)', () => {
  it('joins a public group and opens the panel the link named', async () => {
    const team = group({ visibility: 'public', panels: [panel(1), panel(2)] });
    const requests = fakeServer(() => ({ body: team }));
    render(<JoinPrompt groupId={GROUP_ID} converseId={panel(2).converseId} />);
    fireEvent.click(screen.getByRole('button', { name: 'Join the group' }));
    await waitFor(() =>
      expect(getState().route).toEqual({ name: 'group', groupId: GROUP_ID, converseId: panel(2).converseId }),
    );
    expect(requests).toEqual([{ method: 'POST', url: apiPath('group.join', { groupId: GROUP_ID }), body: undefined }]);
    expect(getState().groups[GROUP_ID]).toEqual(team);
  });

  it('says a private group needs an invite', async () => {
    fakeServer(() => apiError(404, 'IM_ERR_NOT_FOUND', 'Not found'));
    render(<JoinPrompt groupId={GROUP_ID} />);
    fireEvent.click(screen.getByRole('button', { name: 'Join the group' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/private or no longer exists/);
    expect(getState().groups).toEqual({});
  });
});
