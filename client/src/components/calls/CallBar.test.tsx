import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetAccountState } from '../../state/account-state.ts';
import { joinCall, unavailableText, useCalls, type MyCall } from '../../state/calls.ts';
import { initialState, setState } from '../../state/store.ts';
import { alice, GROUP_ID } from '../../test/fixtures.ts';
import { apiError, fakeServer } from '../../test/server.ts';
import { CallBar } from './CallBar.tsx';

const LOUNGE = 'c'.repeat(24);

afterEach(() => {
  vi.unstubAllGlobals();
  forgetAccountState();
  setState(initialState());
});

describe('the call bar', () => {
  it('says so when the server has no voice and video (503), with no controls, until closed', async () => {
    setState({ me: alice });
    const requests = fakeServer(() => apiError(503, 'IM_ERR_SERVICE_UNAVAILABLE', 'voice off'));
    render(<CallBar />);
    await act(() => joinCall({ converseId: LOUNGE, kind: 'panel', groupId: GROUP_ID, name: '#lounge' }));
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([`POST /api/converses/${LOUNGE}/call/join`]);
    expect(screen.getByRole('alert').textContent).toBe(unavailableText());
    expect(screen.getByTestId('call-phase').textContent).toBe('Could not join');
    expect(screen.queryByRole('button', { name: 'Leave call' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('call-bar')).toBeNull());
  });

  it('shows "Listening only" and no microphone, camera or screen buttons with a listen-only token', () => {
    const listening: MyCall = {
      converseId: LOUNGE,
      kind: 'panel',
      groupId: GROUP_ID,
      name: '#stage',
      phase: 'live',
      canPublish: false,
      microphone: false,
      camera: false,
      screen: false,
    };
    useCalls.setState({ mine: listening });
    render(<CallBar />);
    expect(screen.getByTestId('call-phase').textContent).toBe('In the call');
    expect(screen.getByTestId('listen-only').textContent).toBe('Listening only');
    for (const name of ['Unmute microphone', 'Mute microphone', 'Turn camera on', 'Share the screen'])
      expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.getByRole('button', { name: 'Leave call' })).toBeTruthy();
  });

  it('offers the microphone, camera and screen to one who may speak, and shows a refused microphone', () => {
    useCalls.setState({
      mine: {
        converseId: LOUNGE,
        kind: 'dm',
        name: 'Bob',
        phase: 'calling',
        canPublish: true,
        microphone: false,
        camera: false,
        screen: false,
        error: 'The browser did not allow the microphone: allow it for this site to be heard',
      },
    });
    render(<CallBar />);
    expect(screen.getByTestId('call-phase').textContent).toBe('Calling…');
    expect(screen.getByRole('alert').textContent).toMatch(/did not allow the microphone/);
    for (const name of ['Unmute microphone', 'Turn camera on', 'Share the screen', 'Leave call'])
      expect(screen.getByRole('button', { name })).toBeTruthy();
  });
});
