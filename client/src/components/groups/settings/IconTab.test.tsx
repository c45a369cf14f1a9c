import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getState, initialState, setState, useStore } from '../../../state/store.ts';
import { group, GROUP_ID } from '../../../test/fixtures.ts';
import { apiError, fakeServer } from '../../../test/server.ts';
import { IconTab } from './IconTab.tsx';
import { apiPath } from '@im/api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
});

/** The tab following the group in the store, as the settings dialog does. */
function Live() {
  const held = useStore((s) => s.groups[GROUP_ID]);
  return held ? <IconTab group={held} /> : null;
}

const ICON = '2'.repeat(24);

function open(icon?: string) {
  const managed = group({ myRole: 'admin', ...(icon ? { icon } : {}) });
  setState({ groups: { [GROUP_ID]: managed }, groupOrder: [GROUP_ID] });
  render(<Live />);
}

describe('IconTab', () => {
  it('removes the icon: the preview and the group in the store show the initials again', async () => {
    const requests = fakeServer((req) =>
      req.method === 'DELETE'
        ? { status: 204 }
        : { body: { url: `/files/signed/${ICON}`, expiresAt: new Date(Date.now() + 3600_000).toISOString() } },
    );
    open(ICON);
    const preview = screen.getByTestId('group-icon-preview');
    await waitFor(() => expect(preview.querySelector('img')?.getAttribute('src')).toBe(`/files/signed/${ICON}`));
    expect(screen.getByRole('button', { name: 'Change icon…' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remove icon' }));
    await screen.findByText('Icon removed.');
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      apiPath('group.uploadIcon', { groupId: GROUP_ID }),
    ]);
    expect(getState().groups[GROUP_ID]!.icon).toBeUndefined();
    expect(preview.querySelector('img')).toBeNull();
    expect(preview.querySelector('[data-initials]')?.getAttribute('data-initials')).toBe('Te');
    expect(screen.queryByRole('button', { name: 'Remove icon' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose an icon…' })).toBeTruthy();
  });

  it("shows the server's refusal and keeps the icon", async () => {
    fakeServer((req) =>
      req.method === 'DELETE'
        ? apiError(403, 'IM_ERR_FORBIDDEN', 'Only owner or admin may do this')
        : { body: { url: `/files/signed/${ICON}`, expiresAt: new Date(Date.now() + 3600_000).toISOString() } },
    );
    open(ICON);
    fireEvent.click(screen.getByRole('button', { name: 'Remove icon' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/owner or admin/);
    expect(getState().groups[GROUP_ID]!.icon).toBe(ICON);
  });
});
