import type { CustomEmoji } from '@im/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test/server.ts';
import { RichText } from '../messages/RichText.tsx';
import { CustomEmojiContext } from './CustomEmojiContext.tsx';
import { EmojiPicker } from './EmojiPicker.tsx';
import { apiPath } from '@im/api-client';

const PARROT: CustomEmoji = {
  name: 'party_parrot',
  fileId: 'f'.repeat(24),
  url: apiPath('file.download', { fileId: 'f'.repeat(24) }),
};

beforeEach(() => {
  localStorage.clear();
  fakeServer((req) =>
    req.url.startsWith(apiPath('file.url', { fileId: PARROT.fileId }))
      ? { body: { url: `/signed/${PARROT.fileId}`, expiresAt: new Date(Date.now() + 600_000).toISOString() } }
      : { status: 404, body: { error: { code: 'IM_ERR_NOT_FOUND', message: 'nope' } } },
  );
});
afterEach(() => vi.unstubAllGlobals());

function open(custom: CustomEmoji[] = [PARROT]) {
  const picked: string[] = [];
  const view = render(
    <CustomEmojiContext.Provider value={new Map(custom.map((e) => [e.name, e]))}>
      <EmojiPicker onPick={(e) => picked.push(e)} />
    </CustomEmojiContext.Provider>,
  );
  return { picked, view };
}

describe('EmojiPicker', () => {
  it('finds emoji by name or keyword and picks them', async () => {
    const { picked } = open();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search emoji' }), { target: { value: 'thumbs' } });
    const thumbs = await screen.findByRole('button', { name: 'thumbs up' });
    expect(screen.queryByRole('button', { name: 'grinning face' })).toBeNull();
    fireEvent.click(thumbs);
    // The variation selector is dropped, so it is the same reaction as the quick 👍.
    expect(picked).toEqual(['👍']);

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search emoji' }), { target: { value: 'celebration' } });
    expect(await screen.findByRole('button', { name: 'party popper' })).toBeTruthy();
  });

  it('shows categories, and remembers recently used ones for the next picker', async () => {
    const { picked, view } = open();
    expect(screen.getByText('Emoji you pick show up here.')).toBeTruthy();
    fireEvent.click(await screen.findByRole('tab', { name: 'Animals & nature' }));
    fireEvent.click(await screen.findByRole('button', { name: 'dog face' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Food & drink' }));
    fireEvent.click(await screen.findByRole('button', { name: 'red apple' }));
    expect(picked).toEqual(['🐶', '🍎']);
    view.unmount();

    open();
    const recent = screen.getByRole('region', { name: 'Recently used' });
    expect(
      within(recent)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['🍎', '🐶']);
  });

  it("offers the group's custom emoji with their images, in their section and in search", async () => {
    const { picked } = open();
    fireEvent.click(screen.getByRole('tab', { name: 'Custom' }));
    const custom = screen.getByRole('region', { name: 'Custom' });
    const button = within(custom).getByRole('button', { name: ':party_parrot:' });
    await waitFor(() => expect(button.querySelector('img')?.getAttribute('src')).toBe(`/signed/${PARROT.fileId}`));
    fireEvent.click(button);
    expect(picked).toEqual([':party_parrot:']);

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search emoji' }), { target: { value: ':parrot' } });
    expect(await screen.findByRole('button', { name: ':party_parrot:' })).toBeTruthy();
  });

  it('has no custom section in a converse without custom emoji', () => {
    open([]);
    expect(screen.queryByRole('tab', { name: 'Custom' })).toBeNull();
  });
});

describe('custom emoji in message text', () => {
  it('draws :name: of a known emoji as its image, leaving code and unknown names as text', async () => {
    render(
      <CustomEmojiContext.Provider value={new Map([[PARROT.name, PARROT]])}>
        <RichText text={'so :party_parrot: **yes :party_parrot:** `:party_parrot:` :nope:'} />
      </CustomEmojiContext.Provider>,
    );
    await waitFor(() => expect(screen.getAllByRole('img', { name: ':party_parrot:' })).toHaveLength(2));
    expect(screen.getByText(':party_parrot:', { selector: 'code' })).toBeTruthy();
    expect(screen.getByText(/:nope:/)).toBeTruthy();
    // Inside Markdown emphasis too: the pass goes through the rendered elements.
    expect(screen.getAllByRole('img', { name: ':party_parrot:' }).map((img) => img.closest('strong') !== null)).toEqual(
      [false, true],
    );
  });
});
