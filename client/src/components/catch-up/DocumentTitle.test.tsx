import type { UnreadEntry } from '@im/protocol';
import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markConverseRead } from '../../state/conversations.ts';
import { initialState, setState } from '../../state/store.ts';
import { titleWithCount, unreadTotal } from '../../state/title.ts';
import { DocumentTitle } from './DocumentTitle.tsx';

const entry = (converseId: string, readSeq: number, lastSeq: number): UnreadEntry => ({
  converseId,
  readSeq,
  lastSeq,
  unread: lastSeq - readSeq,
  mentions: 0,
});
const A = 'a'.repeat(24);
const B = 'b'.repeat(24);

beforeEach(() => {
  document.title = 'Chat';
  setState(initialState());
});
afterEach(() => setState(initialState()));

describe('the unread count in the title', () => {
  it('adds up every converse and leaves the name alone at zero', () => {
    expect(unreadTotal({ [A]: entry(A, 2, 5), [B]: entry(B, 0, 4) })).toBe(7);
    expect(titleWithCount('Chat', 7)).toBe('(7) Chat');
    expect(titleWithCount('Chat', 0)).toBe('Chat');
  });

  it('follows the counters live, and goes when everything is read', () => {
    setState({ unread: { [A]: entry(A, 2, 5) } });
    render(<DocumentTitle />);
    expect(document.title).toBe('(3) Chat');
    act(() => setState((s) => ({ unread: { ...s.unread, [B]: entry(B, 0, 1) } })));
    expect(document.title).toBe('(4) Chat');
    act(() => markConverseRead(A));
    expect(document.title).toBe('(1) Chat');
    act(() => markConverseRead(B));
    expect(document.title).toBe('Chat');
  });
});
