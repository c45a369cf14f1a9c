import type { Message, PublicUser } from '@im/protocol';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test/server.ts';
import { applyReceipt, useReceipts } from '../../state/receipts.ts';
import { SeenBy, seenBy } from './SeenBy.tsx';
import { apiPath } from '@im/api-client';

const user = (id: string, nickname: string): PublicUser => ({ id, username: id, nickname, createdAt: '' });
const me = user('me', 'Me');
const users = { me, ann: user('ann', 'Ann'), bob: user('bob', 'Bob') };
const message = (seq: number, authorId: string): Message => ({
  id: `m${seq}`,
  converseId: 'c1',
  seq,
  authorId,
  content: 'hi',
  createdAt: '2025-01-01T00:00:00.000Z',
  reactions: [],
  mentions: [],
  attachments: [],
});

afterEach(() => {
  vi.unstubAllGlobals();
  useReceipts.setState({ byConverse: {} });
});

describe('seenBy', () => {
  it('lists readers at or past the seq, never me or the author', () => {
    const reads = { me: 9, ann: 5, bob: 4 };
    expect(seenBy(message(5, 'me'), reads, users, 'me').map((u) => u.id)).toEqual(['ann']);
    expect(seenBy(message(4, 'bob'), reads, users, 'me').map((u) => u.id)).toEqual(['ann']);
  });
});

describe('SeenBy', () => {
  it('shows who read my latest message, from the list and then live', async () => {
    fakeServer(() => ({ body: [{ userId: 'ann', readSeq: 2 }] }));
    render(<SeenBy converseId="c1" messages={[message(1, 'ann'), message(2, 'me')]} me={me} users={users} />);
    expect((await screen.findByTestId('seen-by')).textContent).toContain('Seen by Ann');
    act(() => applyReceipt({ converseId: 'c1', userId: 'bob', readSeq: 2 }));
    expect(screen.getByTestId('seen-by').textContent).toContain('Seen by Ann and Bob');
    // A receipt never moves a reader back.
    act(() => applyReceipt({ converseId: 'c1', userId: 'bob', readSeq: 1 }));
    expect(screen.getByTestId('seen-by').textContent).toContain('Bob');
  });

  it('shows nothing until someone read it, or when the latest message is not mine', async () => {
    const requests = fakeServer(() => ({ body: [{ userId: 'ann', readSeq: 1 }] }));
    const { rerender } = render(
      <SeenBy converseId="c1" messages={[message(1, 'me'), message(2, 'me')]} me={me} users={users} />,
    );
    await vi.waitFor(() =>
      expect(requests.some((r) => r.url.endsWith(apiPath('chat.reads', { converseId: 'c1' })))).toBe(true),
    );
    await act(() => Promise.resolve());
    expect(screen.queryByTestId('seen-by')).toBeNull();
    act(() => applyReceipt({ converseId: 'c1', userId: 'ann', readSeq: 3 }));
    rerender(<SeenBy converseId="c1" messages={[message(2, 'me'), message(3, 'ann')]} me={me} users={users} />);
    expect(screen.queryByTestId('seen-by')).toBeNull();
  });
});
