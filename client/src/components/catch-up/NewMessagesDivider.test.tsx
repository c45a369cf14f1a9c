import { render, screen } from '@testing-library/react';
import type { Message } from '@im/protocol';
import { VirtuosoMockContext } from 'react-virtuoso';
import { describe, expect, it } from 'vitest';
import { alice, bob, message, users } from '../../test/fixtures.ts';
import { listHandlers } from '../../test/message-list.tsx';
import { MessageItem } from '../messages/MessageItem.tsx';
import { MessageList, type MessageListProps } from '../messages/MessageList.tsx';
import { buildRows } from '../messages/rows.ts';

const five = [1, 2, 3, 4, 5].map((seq) => message(seq, seq < 3 ? alice : bob, `message ${seq}`));

function show(messages: Message[], extra: Partial<MessageListProps> = {}) {
  render(
    <VirtuosoMockContext.Provider value={{ viewportHeight: 600, itemHeight: 40 }}>
      <MessageList
        messages={messages}
        pending={[]}
        me={alice}
        users={users}
        canModerate={false}
        hasOlder={false}
        loadingOlder={false}
        handlers={listHandlers()}
        openAt="oldest"
        {...extra}
      />
    </VirtuosoMockContext.Provider>,
  );
}

/** The message whose row carries the "New messages" divider. */
const dividedContent = () =>
  screen.getByTestId('new-messages').closest('.row')!.querySelector('[data-testid="message-content"]')!.textContent;

describe('the "New messages" divider', () => {
  it('marks the first unread message, and no other', () => {
    const rows = buildRows(five, [], alice.id, [], 3);
    expect(rows.map((r) => r.newMessages ?? false)).toEqual([false, false, true, false, false]);
    // A divider starts a new header even within one author's run.
    expect(rows[2]!.first).toBe(true);
    expect(buildRows(five, [], alice.id).some((r) => r.newMessages)).toBe(false);
  });

  it('goes above the first unread held when the one at the read position is not held', () => {
    const gappy = five.filter((m) => m.seq !== 3);
    expect(buildRows(gappy, [], alice.id, [], 3).findIndex((r) => r.newMessages)).toBe(2);
    // Everything read up to the end: no divider at all.
    expect(buildRows(five, [], alice.id, [], 6).some((r) => r.newMessages)).toBe(false);
  });

  it('shows in the list above the first unread message', () => {
    show(five, { firstUnreadSeq: 4 });
    expect(screen.getAllByRole('separator', { name: 'New messages' })).toHaveLength(1);
    expect(dividedContent()).toBe('message 4');
  });

  it('is absent when nothing was unread', () => {
    show(five);
    expect(screen.queryByTestId('new-messages')).toBeNull();
  });

  // The jsdom layout mock cannot centre a row (as a search result is): the row itself is checked here.
  it('highlights the row a search brought into view, and only that one', () => {
    const rows = buildRows(five, [], alice.id);
    const ctx = { me: alice, users, canModerate: false, handlers: listHandlers() };
    render(
      <>
        <MessageItem row={{ ...rows[1]!, highlight: true }} ctx={ctx} />
        <MessageItem row={rows[2]!} ctx={ctx} />
      </>,
    );
    const highlighted = document.querySelectorAll('.row.highlight');
    expect(highlighted).toHaveLength(1);
    expect(highlighted[0]!.textContent).toContain('message 2');
  });

  it('does not highlight the first unread message it opens at', () => {
    show(five, { firstUnreadSeq: 1, focus: { seq: 1, highlight: false } });
    expect(document.querySelector('.row.highlight')).toBeNull();
    expect(dividedContent()).toBe('message 1');
  });
});
