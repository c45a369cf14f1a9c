import type { Panel } from '@im/protocol';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { updatePanels } from '../../state/groups.ts';
import { getState, initialState, setState } from '../../state/store.ts';
import { group, GROUP_ID, panel } from '../../test/fixtures.ts';
import { apiError, fakeClipboard, fakeServer } from '../../test/server.ts';
import { PanelSettingsDialog } from './PanelSettingsDialog.tsx';
import { apiPath } from '@im/api-client';

let restoreClipboard: (() => void) | undefined;

afterEach(() => {
  vi.unstubAllGlobals();
  restoreClipboard?.();
  restoreClipboard = undefined;
  setState(initialState());
});

const general = panel(1);
const origin = window.location.origin;

function open(visibility: 'private' | 'public', first: Panel = general) {
  setState({ groups: { [GROUP_ID]: group({ myRole: 'admin', visibility, panels: [first] }) }, groupOrder: [GROUP_ID] });
  const onClose = vi.fn();
  render(<PanelSettingsDialog groupId={GROUP_ID} panel={first} onClose={onClose} />);
  return { onClose, toggle: screen.getByRole('switch', { name: 'Web-public' }) as HTMLInputElement };
}

describe('PanelSettingsDialog: web-public', () => {
  it('is off and disabled in a private group, saying why', () => {
    const { toggle } = open('private');
    expect(toggle.checked).toBe(false);
    expect(toggle.disabled).toBe(true);
    const why = document.getElementById(toggle.getAttribute('aria-describedby')!);
    expect(why?.textContent).toMatch(/Only panels of a public group can be web-public/);
    expect(screen.queryByTestId('public-link')).toBeNull();
  });

  it('turns on at once in a public group and shows the page, Atom and RSS links', async () => {
    const { toggle } = open('public');
    const requests = fakeServer((req) => ({ body: { ...general, ...(req.body as object) } }));
    expect(toggle.disabled).toBe(false);
    fireEvent.click(toggle);

    const page = (await screen.findByTestId('public-link')) as HTMLInputElement;
    expect(requests).toEqual([
      {
        method: 'PATCH',
        url: apiPath('group.updatePanel', { groupId: GROUP_ID, panelId: general.id }),
        body: { webPublic: true },
      },
    ]);
    expect(page.value).toBe(`${origin}/p/${general.id}`);
    expect((screen.getByTestId('atom-link') as HTMLInputElement).value).toBe(`${origin}/p/${general.id}/feed.atom`);
    expect((screen.getByTestId('rss-link') as HTMLInputElement).value).toBe(`${origin}/p/${general.id}/feed.rss`);
    expect(screen.getByLabelText('Public link')).toBe(page);
    expect(getState().groups[GROUP_ID]!.panels[0]!.webPublic).toBe(true);
    expect(toggle.checked).toBe(true);
  });

  it('copies each link with its own button, which says Copied', async () => {
    const clipboard = fakeClipboard();
    restoreClipboard = clipboard.restore;
    open('public', panel(1, { webPublic: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Copy atom feed' }));
    await screen.findByRole('button', { name: 'Copied atom feed' });
    expect(clipboard.written).toEqual([`${origin}/p/${general.id}/feed.atom`]);
    expect(screen.getByRole('button', { name: 'Copy public link' })).toBeTruthy();
    expect(screen.getByText('Copied to the clipboard.')).toBeTruthy();
  });

  it('says to copy by hand when the clipboard refuses', async () => {
    restoreClipboard = fakeClipboard({ refuse: true }).restore;
    open('public', panel(1, { webPublic: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Copy public link' }));
    await screen.findByText('Could not copy: select the text and copy it by hand.');
    expect(screen.queryByRole('button', { name: /^Copied/ })).toBeNull();
  });

  it('explains a refusal because the group went private meanwhile', async () => {
    const { toggle } = open('public');
    fakeServer(() => apiError(409, 'IM_ERR_CONFLICT', 'Conflict'));
    fireEvent.click(toggle);
    expect((await screen.findByRole('alert')).textContent).toMatch(/Make the group public in its settings first/);
    expect(toggle.checked).toBe(false);
  });

  it('follows events: links go when another admin turns it off, and the switch locks when the group goes private', async () => {
    const { toggle } = open('public', panel(1, { webPublic: true }));
    expect(screen.getByTestId('public-link')).toBeTruthy();
    act(() => updatePanels(GROUP_ID, (panels) => panels.map((p) => ({ ...p, webPublic: false }))));
    await waitFor(() => expect(screen.queryByTestId('public-link')).toBeNull());
    expect(toggle.checked).toBe(false);
    act(() => setState((s) => ({ groups: { [GROUP_ID]: { ...s.groups[GROUP_ID]!, visibility: 'private' } } })));
    expect(toggle.disabled).toBe(true);
  });

  it('still saves the name and posting role with Save, without touching web-public', async () => {
    const { onClose } = open('public');
    const requests = fakeServer((req) => ({ body: { ...general, ...(req.body as object) } }));
    fireEvent.change(screen.getByLabelText('Panel name'), { target: { value: 'news' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.map((r) => r.body)).toEqual([{ name: 'news' }]);
  });
});
