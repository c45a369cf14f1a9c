import type { FollowedThread } from '@im/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { alice, bob, message } from '../test/fixtures.ts';
import { emptyConverse } from './messages.ts';
import { notifyReason } from './realtime.ts';
import { initialState, setState } from './store.ts';
import { useThreads } from './threads.ts';

afterEach(() => {
  setState(initialState());
  useThreads.setState({ open: null, replies: {}, followed: null });
});

describe('what a message that arrives while the tab is hidden is worth telling', () => {
  const root = message(1, alice, 'Lunch?');
  const otherRoot = message(2, bob, 'Anyone seen my keys?');
  const reply = (to: typeof root, seq: number) => ({ ...message(seq, bob, 'on it'), threadId: to.id });

  it('a DM, a mention, a reply in a thread I follow or started; nothing else', () => {
    setState({ me: alice, converses: { [root.converseId]: { ...emptyConverse(), items: [root, otherRoot] } } });
    expect(notifyReason({ ...message(3, bob, 'hi @alice'), mentions: [alice.id] }, alice.id)).toBe('mention');
    expect(notifyReason(reply(root, 4), alice.id)).toBe('thread');
    expect(notifyReason(reply(otherRoot, 5), alice.id)).toBeUndefined();
    expect(notifyReason(message(6, bob, 'plain'), alice.id)).toBeUndefined();

    const followed: FollowedThread = {
      root: otherRoot,
      converseId: otherRoot.converseId,
      lastReplyAt: otherRoot.createdAt,
      unread: 0,
      readSeq: 2,
    };
    useThreads.setState({ followed: [followed] });
    expect(notifyReason(reply(otherRoot, 7), alice.id)).toBe('thread');

    setState({ dms: { [root.converseId]: { id: root.converseId, type: 'dm', memberIds: [alice.id, bob.id] } } });
    expect(notifyReason(message(8, bob, 'psst'), alice.id)).toBe('dm');
  });
});
