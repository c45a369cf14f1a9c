import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRoute, routePath } from '../../state/route.ts';
import { getState, initialState, setState } from '../../state/store.ts';
import { group } from '../../test/fixtures.ts';
import { fakeServer } from '../../test/server.ts';
import { GroupRail } from './GroupRail.tsx';
import { apiPath } from '@im/api-client';

afterEach(() => {
  vi.unstubAllGlobals();
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

describe('GroupRail: icons', () => {
  it("shows a group's icon through a signed URL, and the initials of a group without one", async () => {
    const fileId = 'f'.repeat(24);
    const withIcon = group({ icon: fileId });
    const plain = group({ id: 'e'.repeat(24), name: 'Others' });
    const seen = fakeServer((req) =>
      req.url === apiPath('file.url', { fileId, variant: 'file' })
        ? { body: { url: `/files/signed/${fileId}`, expiresAt: new Date(Date.now() + 3600_000).toISOString() } }
        : { status: 404, body: {} },
    );
    setState({ groups: { [withIcon.id]: withIcon, [plain.id]: plain }, groupOrder: [withIcon.id, plain.id] });
    render(<GroupRail onCreate={() => undefined} onJoin={() => undefined} />);
    const [first, second] = screen.getAllByTestId('rail-group');
    await vi.waitFor(() => expect(first!.querySelector('img')?.getAttribute('src')).toBe(`/files/signed/${fileId}`));
    expect(first!.querySelector('[data-initials]')).toBeNull();
    expect(second!.querySelector('img')).toBeNull();
    expect(second!.querySelector('[data-initials]')?.getAttribute('data-initials')).toBe('Ot');
    expect(seen.map((r) => r.url)).toEqual([apiPath('file.url', { fileId, variant: 'file' })]);
  });

  it('keeps the initials when the icon cannot be read', async () => {
    const fileId = '1'.repeat(24);
    const withIcon = group({ icon: fileId });
    const seen = fakeServer(() => ({ status: 404, body: { error: { code: 'IM_ERR_NOT_FOUND', message: 'gone' } } }));
    setState({ groups: { [withIcon.id]: withIcon }, groupOrder: [withIcon.id] });
    render(<GroupRail onCreate={() => undefined} onJoin={() => undefined} />);
    await vi.waitFor(() => expect(seen.length).toBe(1));
    const item = screen.getByTestId('rail-group');
    expect(item.querySelector('img')).toBeNull();
    expect(item.querySelector('[data-initials]')?.getAttribute('data-initials')).toBe('Te');
  });
});
