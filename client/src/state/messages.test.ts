import { describe, expect, it } from 'vitest';
import { alice, bob, message } from '../test/fixtures.ts';
import { applyReactionCounts, dropConfirmed, mergeMessages, type PendingMessage } from './messages.ts';

describe('mergeMessages', () => {
  it('keeps one copy per message whether it came live, by sync or in a history page', () => {
    const live = [message(5, alice, 'five'), message(6, bob, 'six')];
    const synced = [message(6, bob, 'six'), message(7, alice, 'seven')];
    const page = [message(3, alice, 'three'), message(4, bob, 'four'), message(5, alice, 'five')];
    const merged = mergeMessages(mergeMessages(live, synced), page);
    expect(merged.map((m) => m.seq)).toEqual([3, 4, 5, 6, 7]);
  });

  it('keeps the edited or deleted state over an older copy arriving later', () => {
    const edited = { ...message(2, alice, 'fixed'), editedAt: '2026-11-20T10:00:00.000Z' };
    const stale = message(2, alice, 'typo');
    expect(mergeMessages([message(1, bob, 'x'), edited], [stale])[1]!.content).toBe('fixed');
    const tombstone = { ...message(2, alice, ''), deleted: true as const };
    expect(mergeMessages([tombstone], [stale])[0]!.deleted).toBe(true);
  });
});

describe('dropConfirmed', () => {
  const pending = (clientMsgId: string): PendingMessage => ({
    clientMsgId,
    converseId: 'c',
    content: 'x',
    attachments: [],
    status: 'sending',
    createdAt: '2026-11-20T10:00:00.000Z',
  });

  it('removes the pending copy once the server copy with its clientMsgId arrives', () => {
    const confirmed = { ...message(9, alice, 'x'), clientMsgId: 'c:1' };
    expect(dropConfirmed([pending('c:1'), pending('c:2')], [confirmed]).map((p) => p.clientMsgId)).toEqual(['c:2']);
  });
});

describe('applyReactionCounts', () => {
  it("takes the server's counts and moves `me` only for my own change", () => {
    const before = [{ emoji: '👍', count: 1, me: true }];
    const othersAdd = applyReactionCounts(before, [{ emoji: '👍', count: 2 }], {
      emoji: '👍',
      byMe: false,
      added: true,
    });
    expect(othersAdd).toEqual([{ emoji: '👍', count: 2, me: true }]);
    const iRemove = applyReactionCounts(othersAdd, [{ emoji: '👍', count: 1 }], {
      emoji: '👍',
      byMe: true,
      added: false,
    });
    expect(iRemove).toEqual([{ emoji: '👍', count: 1, me: false }]);
    expect(
      applyReactionCounts(iRemove, [{ emoji: '👍', count: 0 }], { emoji: '👍', byMe: false, added: false }),
    ).toEqual([]);
  });
});
