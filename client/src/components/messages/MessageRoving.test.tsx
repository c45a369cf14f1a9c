import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, bob, message } from '../../test/fixtures.ts';
import { showList as show } from '../../test/message-list.tsx';

describe('the message list by keyboard', () => {
  it('is one Tab stop: one message in the Tab order, the others and their buttons out of it', async () => {
    show([message(1, bob, 'one'), message(2, alice, 'see https://example.org'), message(3, bob, '**three**')]);
    const articles = screen.getAllByTestId('message');
    await waitFor(() => expect(articles.filter((a) => a.tabIndex === 0)).toHaveLength(1));
    const stop = articles.find((a) => a.tabIndex === 0)!;
    for (const other of articles.filter((a) => a !== stop)) {
      const tabbable = [...other.querySelectorAll('button, a[href]')].filter(
        (el) => el.getAttribute('tabindex') !== '-1',
      );
      expect(tabbable).toEqual([]);
    }
    // Named by what it shows: author, time and the rendered text.
    expect(articles[2]!.getAttribute('aria-label')).toMatch(/^Bob, \d+:\d+.*: three$/);
  });

  it('moves focus between messages with the arrows, and the Tab stop with it', async () => {
    show([message(1, bob, 'one'), message(2, alice, 'two'), message(3, bob, 'three')]);
    const articles = screen.getAllByTestId('message');
    articles[2]!.focus();
    fireEvent.keyDown(articles[2]!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(articles[1]);
    await waitFor(() => expect(articles[1]!.tabIndex).toBe(0));
    expect(articles[2]!.tabIndex).toBe(-1);
    fireEvent.keyDown(articles[1]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(articles[2]);
    // Escape from a control of the message comes back to the message.
    const reply = articles[2]!.querySelector<HTMLElement>('button[aria-label="Reply"]')!;
    reply.focus();
    fireEvent.keyDown(reply, { key: 'Escape' });
    expect(document.activeElement).toBe(articles[2]);
  });
});
