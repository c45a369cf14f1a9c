import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getState, initialState, setState, useStore } from '../../../state/store.ts';
import { group, GROUP_ID, panel } from '../../../test/fixtures.ts';
import { apiError, fakeServer } from '../../../test/server.ts';
import { profilePatch, VisibilityTab } from './VisibilityTab.tsx';
import { apiPath } from '@im/api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
});

/** The tab as the owner sees it, following the group in the store as the settings dialog does. */
function Live() {
  const held = useStore((s) => s.groups[GROUP_ID]);
  return held ? <VisibilityTab group={held} /> : null;
}

function open(change: Parameters<typeof group>[0] = {}) {
  const owned = group({ myRole: 'owner', ...change });
  setState({ groups: { [GROUP_ID]: owned }, groupOrder: [GROUP_ID] });
  render(<Live />);
  return owned;
}

const save = () => screen.getByRole('button', { name: 'Save' });

describe('VisibilityTab', () => {
  it('makes a private group public with a description, sending only what changed', async () => {
    const owned = open();
    const requests = fakeServer((req) => ({
      body: { ...owned, ...(req.body as object) },
    }));
    expect(screen.getByRole('radio', { name: /^Private/ })).toHaveProperty('checked', true);
    expect(save()).toHaveProperty('disabled', true);

    fireEvent.click(screen.getByRole('radio', { name: /^Public/ }));
    const description = screen.getByLabelText('Description');
    fireEvent.change(description, { target: { value: '  Seeds and soil  ' } });
    const hint = document.getElementById(description.getAttribute('aria-describedby')!);
    expect(hint?.textContent).toMatch(/18\/500 characters/);
    fireEvent.click(save());

    expect((await screen.findByRole('status')).textContent).toBe('Saved.');
    expect(requests).toEqual([
      {
        method: 'PATCH',
        url: apiPath('group.get', { groupId: GROUP_ID }),
        body: { visibility: 'public', description: 'Seeds and soil' },
      },
    ]);
    expect(getState().groups[GROUP_ID]).toMatchObject({ visibility: 'public', description: 'Seeds and soil' });
    expect(save()).toHaveProperty('disabled', true);
  });

  it('clears the description with an empty string', async () => {
    const owned = open({ visibility: 'public', description: 'Old words' });
    const requests = fakeServer(() => ({ body: { ...owned, description: undefined } }));
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: '   ' } });
    fireEvent.click(save());
    await screen.findByText('Saved.');
    expect(requests.map((r) => r.body)).toEqual([{ description: '' }]);
    expect(getState().groups[GROUP_ID]!.description).toBeUndefined();
    expect((screen.getByLabelText('Description') as HTMLTextAreaElement).value).toBe('');
  });

  it('warns that going private takes the web-public panels off the web', () => {
    open({ visibility: 'public', panels: [panel(1, { webPublic: true }), panel(2, { webPublic: true }), panel(3)] });
    expect(screen.queryByTestId('private-warning')).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: /^Private/ }));
    expect(screen.getByTestId('private-warning').textContent).toMatch(/its 2 web-public panels off the web/);
  });

  it('shows a refusal next to Save and keeps the draft', async () => {
    open();
    fakeServer(() => apiError(403, 'IM_ERR_FORBIDDEN', 'Only owners and admins can do that'));
    fireEvent.click(screen.getByRole('radio', { name: /^Public/ }));
    fireEvent.click(save());
    expect((await screen.findByRole('alert')).textContent).toBe('Only owners and admins can do that');
    expect(screen.getByRole('radio', { name: /^Public/ })).toHaveProperty('checked', true);
    expect(getState().groups[GROUP_ID]!.visibility).toBe('private');
  });

  it('sets the language of the public pages and feeds, offered to owner and admins only', async () => {
    const owned = open({ visibility: 'public' });
    const requests = fakeServer((req) => ({ body: { ...owned, ...(req.body as object) } }));
    const choice = screen.getByLabelText('Language of public pages and feeds') as HTMLSelectElement;
    expect(choice.value).toBe('en');
    expect([...choice.options].map((o) => o.textContent)).toEqual(['English', 'Deutsch', '简体中文']);
    fireEvent.change(choice, { target: { value: 'de' } });
    fireEvent.click(save());
    await screen.findByText('Saved.');
    expect(requests.map((r) => r.body)).toEqual([{ language: 'de' }]);
    expect(getState().groups[GROUP_ID]!.language).toBe('de');
    expect(choice.value).toBe('de');
  });

  it('does not offer the language to a member who may manage the group', () => {
    open({ myRole: 'member', myPermissions: ['manageGroup'] });
    expect(screen.getByLabelText('Description')).toBeTruthy();
    expect(screen.queryByLabelText('Language of public pages and feeds')).toBeNull();
  });

  it('follows a change made elsewhere while nothing is being edited', async () => {
    open();
    setState((s) => ({ groups: { [GROUP_ID]: { ...s.groups[GROUP_ID]!, visibility: 'public', description: 'New' } } }));
    await waitFor(() => expect(screen.getByRole('radio', { name: /^Public/ })).toHaveProperty('checked', true));
    expect((screen.getByLabelText('Description') as HTMLTextAreaElement).value).toBe('New');
  });
});

describe('profilePatch', () => {
  it('names only the fields that differ, the description trimmed', () => {
    const g = group({ description: 'Hi' });
    expect(profilePatch(g, 'private', ' Hi ')).toEqual({});
    expect(profilePatch(g, 'public', 'Hi')).toEqual({ visibility: 'public' });
    expect(profilePatch(g, 'private', '')).toEqual({ description: '' });
    expect(profilePatch(group(), 'private', '')).toEqual({});
    expect(profilePatch(g, 'private', 'Hi', 'zh')).toEqual({ language: 'zh' });
  });
});
