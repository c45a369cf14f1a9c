import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialState, setState } from '../../state/store.ts';
import { ConnectionBanner } from './ConnectionBanner.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
});

describe('ConnectionBanner', () => {
  it('shows nothing while online and says when the connection is being made again', () => {
    setState({ connection: 'online' });
    const { rerender } = render(<ConnectionBanner />);
    expect(screen.getByTestId('connection').textContent).toBe('');
    setState({ connection: 'reconnecting' });
    rerender(<ConnectionBanner />);
    expect(screen.getByTestId('connection').textContent).toBe('Connection lost. Reconnecting…');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offers to take a window closed for the others back, by loading it again', () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    setState({ connection: 'displaced' });
    render(<ConnectionBanner />);
    expect(screen.getByTestId('connection').textContent).toContain('open in too many other windows');
    fireEvent.click(screen.getByRole('button', { name: 'Use here' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
