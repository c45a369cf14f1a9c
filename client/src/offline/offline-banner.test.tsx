import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionBanner } from '../components/common/ConnectionBanner.tsx';
import { setState } from '../state/store.ts';

function setBrowserOnline(online: boolean): void {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

describe('the connection banner with no network', () => {
  afterEach(() => setBrowserOnline(true));

  it('says the app is offline, showing what the device kept, while the browser has no network', () => {
    setState({ connection: 'reconnecting' });
    render(<ConnectionBanner />);
    expect(screen.getByRole('status').textContent).toBe('Connection lost. Reconnecting…');
    act(() => setBrowserOnline(false));
    expect(screen.getByRole('status').textContent).toBe('Offline: showing the messages saved on this device');
    expect(screen.getByTestId('connection').dataset.state).toBe('offline');
    act(() => setBrowserOnline(true));
    expect(screen.getByTestId('connection').dataset.state).toBe('reconnecting');
  });
});
