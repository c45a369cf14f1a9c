import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRoute, routePath } from '../../state/route.ts';
import { getState, initialState, setState } from '../../state/store.ts';
import { GroupRail } from './GroupRail.tsx';

afterEach(() => {
  setState(initialState());
  window.history.replaceState(null, '', '/');
});

describe('GroupRail: Explore', () => {
  it('opens Explore at /explore and marks it as the current page instead of home', () => {
    render(<GroupRail onCreate={() => undefined} onJoin={() => undefined} />);
    const explore = screen.getByRole('button', { name: 'Explore public groups' });
    expect(screen.getByRole('button', { name: 'Direct messages' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(explore);
    expect(getState().route).toEqual({ name: 'explore' });
    expect(window.location.pathname).toBe('/explore');
    expect(explore.getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('button', { name: 'Direct messages' }).getAttribute('aria-current')).toBeNull();
  });

  it('reads /explore back from the address bar', () => {
    expect(parseRoute('/explore')).toEqual({ name: 'explore' });
    expect(routePath({ name: 'explore' })).toBe('/explore');
    expect(parseRoute('/explore/else')).toEqual({ name: 'home' });
  });
});
