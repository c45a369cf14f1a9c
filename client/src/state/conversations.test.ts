import { beforeEach, describe, expect, it } from 'vitest';
import { alice, bob, message } from '../test/fixtures.ts';
import { receiveMessages } from './conversations.ts';
import { emptyConverse } from './messages.ts';
import { getState, initialState, setState } from './store.ts';

const CONVERSE = message(1, bob, '').converseId;

describe('receiveMessages', () => {
  beforeEach(() => setState({ ...initialState(), me: alice }));

  it('keeps a live message that arrives while the first page is loading (the page may predate it)', () => {
    setState({ converses: { [CONVERSE]: { ...emptyConverse(), loadingOlder: true } } });
    receiveMessages(CONVERSE, [message(51, bob, 'just now')]);
    expect(getState().converses[CONVERSE]!.items.map((m) => m.seq)).toEqual([51]);
  });

  it('only counts messages of a converse never opened, and counts each once', () => {
    receiveMessages(CONVERSE, [message(7, bob, 'hi')]);
    receiveMessages(CONVERSE, [message(7, bob, 'hi')]);
    expect(getState().converses[CONVERSE]).toBeUndefined();
    expect(getState().unread[CONVERSE]).toMatchObject({ lastSeq: 7, unread: 1 });
  });

  it('replaces my pending copy with the confirmed one', () => {
    const pending = {
      clientMsgId: 'c:abc',
      converseId: CONVERSE,
      content: 'mine',
      attachments: [],
      status: 'sending' as const,
      createdAt: new Date().toISOString(),
    };
    setState({ converses: { [CONVERSE]: { ...emptyConverse(), loaded: true, pending: [pending] } } });
    receiveMessages(CONVERSE, [{ ...message(3, alice, 'mine'), clientMsgId: 'c:abc' }]);
    const held = getState().converses[CONVERSE]!;
    expect(held.pending).toEqual([]);
    expect(held.items.map((m) => m.content)).toEqual(['mine']);
    expect(getState().unread[CONVERSE]).toMatchObject({ unread: 0, readSeq: 3 });
  });
});
