import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyConverse } from '../../state/messages.ts';
import { initialState, setState } from '../../state/store.ts';
import { alice, message, users } from '../../test/fixtures.ts';
import { ReplyQuote } from './ReplyQuote.tsx';

afterEach(() => setState(initialState()));

describe('ReplyQuote', () => {
  it('quotes the words of a Markdown message, not its marks, and keeps a spoiler hidden', () => {
    const quoted = message(1, alice, '**Big** news: ||the launch moved|| to `friday`');
    setState({ converses: { [quoted.converseId]: { ...emptyConverse(), items: [quoted] } } });
    render(<ReplyQuote converseId={quoted.converseId} messageId={quoted.id} users={users} />);
    expect(screen.getByTestId('reply-quote').querySelector('.excerpt')?.textContent).toBe(
      'Big news: [spoiler] to friday',
    );
  });
});
