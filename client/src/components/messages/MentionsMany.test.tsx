import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { countMessage } from '../../state/unread.ts';
import { alice, bob, message } from '../../test/fixtures.ts';
import { showList as show } from '../../test/message-list.tsx';

describe('@all and @here', () => {
  it('highlights a flagged @all as a mention of me', () => {
    show([{ ...message(1, bob, 'news for @all today'), mentionsAll: true }]);
    const article = screen.getByTestId('message');
    expect(article.className).toContain('mentions-me');
    expect(within(article).getByText('@all').className).toBe('mention me');
  });

  it('leaves an unflagged @all as plain text (the server said it mentions no one)', () => {
    show([message(1, bob, 'hey @all')]);
    const article = screen.getByTestId('message');
    expect(article.className).not.toContain('mentions-me');
    expect(article.querySelector('.mention')).toBeNull();
  });

  it('counts a flagged @here as an unread mention, but not my own', () => {
    const here = { ...message(3, bob, '@here standup'), mentionsHere: true as const };
    expect(countMessage(undefined, here, alice.id, false).mentions).toBe(1);
    expect(countMessage(undefined, { ...here, authorId: alice.id }, alice.id, false).mentions).toBe(0);
  });
});
