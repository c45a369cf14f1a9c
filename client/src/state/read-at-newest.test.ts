import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alice, bob, message } from '../test/fixtures.ts';
import { setAtBottom, setViewedConverse } from './conversations.ts';
import { emptyConverse } from './messages.ts';
import { getState, initialState, setState } from './store.ts';

const CONVERSE = message(1, bob, '').converseId;
const held = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(from + i, bob, `m${from + i}`));

describe('reading by scrolling to the end', () => {
  beforeEach(() => {
    setState({
      ...initialState(),
      me: alice,
      unread: { [CONVERSE]: { converseId: CONVERSE, lastSeq: 150, readSeq: 30, unread: 120, mentions: 0 } },
    });
    setViewedConverse(CONVERSE);
  });
  afterEach(() => setViewedConverse(null));

  it('does not count the end of a window short of the newest as read (opened at the first unread)', () => {
    setState({ converses: { [CONVERSE]: { ...emptyConverse(), loaded: true, items: held(6, 56), hasNewer: true } } });
    setAtBottom(CONVERSE, true);
    expect(getState().unread[CONVERSE]).toMatchObject({ readSeq: 30, unread: 120 });
  });

  it('counts everything read once the newest is in view', () => {
    setState({ converses: { [CONVERSE]: { ...emptyConverse(), loaded: true, items: held(101, 150) } } });
    setAtBottom(CONVERSE, true);
    expect(getState().unread[CONVERSE]).toMatchObject({ readSeq: 150, unread: 0 });
  });
});
