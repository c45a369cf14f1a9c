import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PendingMessage } from '../../state/messages.ts';
import { alice, bob, message } from '../../test/fixtures.ts';
import { showList as show } from '../../test/message-list.tsx';

describe('MessageList', () => {
  it('keeps only a window of 10,000 loaded messages in the page', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => message(i + 1, i % 2 ? alice : bob, `message ${i + 1}`));
    show(many);
    const rendered = screen.getAllByTestId('message');
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThan(100);
    expect(screen.getByText('message 1')).toBeTruthy();
    expect(screen.queryByText('message 10000')).toBeNull();
  });

  it('shows markup in a message as text, never as elements', () => {
    const hostile = '<img src=x onerror="window.__pwned=1"><b>bold</b>';
    show([message(1, bob, hostile)]);
    const content = screen.getByTestId('message-content');
    expect(content.textContent).toBe(hostile);
    expect(content.querySelector('img, b')).toBeNull();
  });

  it('makes links clickable in a new tab without access to the app, leaving trailing punctuation out', () => {
    show([message(1, bob, 'see https://example.org/a?b=1, then javascript:alert(1)')]);
    const link = screen.getByRole('link');
    expect(link.getAttribute('href')).toBe('https://example.org/a?b=1');
    expect(link.getAttribute('rel')).toBe('nofollow noopener noreferrer ugc');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });

  it('groups consecutive messages of one author under one header, and puts a divider between days', () => {
    show([
      message(1, bob, 'one', '2026-11-19T09:00:00.000Z'),
      message(2, bob, 'two', '2026-11-20T09:00:00.000Z'),
      message(3, bob, 'three', '2026-11-20T09:01:00.000Z'),
      message(4, alice, 'four', '2026-11-20T09:02:00.000Z'),
      message(5, bob, 'five', '2026-11-20T09:03:00.000Z'),
    ]);
    const headers = document.querySelectorAll('.message-head .author');
    expect([...headers].map((h) => h.textContent)).toEqual(['Bob', 'Bob', 'Alice', 'Bob']);
    expect(screen.getAllByRole('separator')).toHaveLength(2);
  });

  it('highlights a message that mentions me and the @name in it', () => {
    show([{ ...message(1, bob, 'hey @alice look'), mentions: [alice.id] }]);
    const article = screen.getByTestId('message');
    expect(article.className).toContain('mentions-me');
    expect(within(article).getByText('@alice').className).toContain('mention');
  });

  it('shows a failed send with Retry and Discard', () => {
    const failed: PendingMessage = {
      clientMsgId: 'c:1',
      converseId: 'c',
      content: 'did not go',
      attachments: [],
      status: 'failed',
      error: 'Not sent: no connection',
      createdAt: '2026-11-20T10:00:00.000Z',
    };
    const h = show([message(1, bob, 'before')], { pending: [failed] });
    expect(screen.getByRole('alert').textContent).toContain('Not sent: no connection');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(h.onRetry).toHaveBeenCalledWith(failed);
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(h.onDiscard).toHaveBeenCalledWith(failed);
  });

  it('offers edit on my own messages only, and toggles reactions', () => {
    const mine = { ...message(1, alice, 'mine'), reactions: [{ emoji: '🎉', count: 2, me: true }] };
    const h = show([mine, message(2, bob, 'theirs')]);
    const [first, second] = screen.getAllByTestId('message');
    expect(within(first!).queryByRole('button', { name: 'Edit' })).not.toBeNull();
    expect(within(second!).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(second!).queryByRole('button', { name: 'Delete' })).toBeNull();
    fireEvent.click(within(first!).getByRole('button', { name: '🎉 2' }));
    expect(h.onReact).toHaveBeenCalledWith(mine, '🎉');
  });

  it('edits in place: Enter saves the new text, Escape leaves it', async () => {
    const mine = message(1, alice, 'draft');
    const h = show([mine]);
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const box = screen.getByRole('textbox', { name: 'Edit message' });
    fireEvent.change(box, { target: { value: 'final' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(h.onEdit).toHaveBeenCalledWith(mine, 'final');
  });

  it('tells when the beginning of the conversation is reached', () => {
    show([message(1, bob, 'first ever')], { hasOlder: false });
    expect(screen.getByText('This is the beginning of the conversation.')).toBeTruthy();
  });
});
