import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../test/server.ts';
import { alice, bob, message } from '../test/fixtures.ts';
import { receiveMessages, setViewedConverse } from './conversations.ts';
import { emptyConverse } from './messages.ts';
import { getState, initialState, setState } from './store.ts';
import { apiPath } from '@im/api-client';

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
  describe('while I read the converse', () => {
    afterEach(() => {
      setViewedConverse(null);
      vi.unstubAllGlobals();
    });

    it("tells the server someone else's new message was read, and not my own", async () => {
      const seen = fakeServer(() => ({ status: 204 }));
      setState({
        users: { [alice.id]: alice, [bob.id]: bob },
        converses: { [CONVERSE]: { ...emptyConverse(), loaded: true } },
      });
      setViewedConverse(CONVERSE);
      receiveMessages(CONVERSE, [message(4, alice, 'mine')]);
      receiveMessages(CONVERSE, [message(5, bob, 'theirs')]);
      expect(getState().unread[CONVERSE]).toMatchObject({ readSeq: 5, unread: 0 });
      await vi.waitFor(() => expect(seen.length).toBe(1));
      expect(seen[0]).toEqual({ method: 'POST', url: apiPath('chat.ack', { converseId: CONVERSE }), body: { seq: 5 } });
    });
  });
});
