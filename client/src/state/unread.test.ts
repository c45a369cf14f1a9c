import type { UnreadEntry } from '@im/protocol';
import { describe, expect, it } from 'vitest';
import { alice, bob, message } from '../test/fixtures.ts';
import { countMessage, markReadUpTo, mergeServerUnread } from './unread.ts';

const entry = (lastSeq: number, readSeq: number, mentions = 0): UnreadEntry => ({
  converseId: 'c',
  lastSeq,
  readSeq,
  unread: lastSeq - readSeq,
  mentions,
});

describe('unread counts', () => {
  it('counts a message once even when it is delivered twice, and mentions of me apart', () => {
    const mention = { ...message(11, bob, '@alice hi'), mentions: [alice.id] };
    let counts = countMessage(entry(10, 10), mention, alice.id, false);
    counts = countMessage(counts, mention, alice.id, false);
    expect(counts).toMatchObject({ lastSeq: 11, unread: 1, mentions: 1 });
    counts = countMessage(counts, message(12, bob, 'plain'), alice.id, false);
    expect(counts).toMatchObject({ unread: 2, mentions: 1 });
  });

  it('treats my own message, or one arriving while I read, as read', () => {
    expect(countMessage(entry(10, 7, 1), message(11, alice, 'mine'), alice.id, false)).toMatchObject({
      readSeq: 11,
      unread: 0,
      mentions: 0,
    });
    expect(countMessage(entry(10, 10), message(11, bob, 'seen'), alice.id, true)).toMatchObject({ unread: 0 });
  });

  it('never moves the read position back', () => {
    expect(markReadUpTo(entry(20, 15, 2), 'c', 12)).toMatchObject({ readSeq: 15, unread: 5, mentions: 2 });
    expect(markReadUpTo(entry(20, 15, 2), 'c', 20)).toMatchObject({ readSeq: 20, unread: 0, mentions: 0 });
  });

  it("keeps a converse counted past the server's answer that was computed before its newest message", () => {
    const local = { c: entry(12, 10) };
    expect(mergeServerUnread(local, [entry(11, 10)]).c).toMatchObject({ lastSeq: 12, unread: 2 });
    expect(mergeServerUnread(local, [entry(13, 13)]).c).toMatchObject({ lastSeq: 13, unread: 0 });
  });
});
