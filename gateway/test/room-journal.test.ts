import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RoomJournal, type ReplayTarget } from '../src/realtime/room-journal.ts';

/** A socket as the replay sees it: its rooms, and what it was sent. */
function fakeSocket(rooms: string[]) {
  const sent: Array<[string, unknown]> = [];
  const target: ReplayTarget & { rooms: Set<string> } = {
    rooms: new Set(rooms),
    join(more) {
      for (const r of more) this.rooms.add(r);
    },
    leave(room) {
      this.rooms.delete(room);
    },
    emit(event, payload) {
      sent.push([event, payload]);
    },
  };
  return { target, sent };
}

const AT_MARK = ['sid', 'u:1', 's:1'];

describe('the room journal', () => {
  it('keeps nothing while no socket is loading', () => {
    const journal = new RoomJournal();
    journal.record({ kind: 'emit', to: ['c:a'], event: 'message:new', payload: 1 });
    assert.equal(journal.size, 0);
  });

  it('replays, in order, what went to the loaded rooms after the mark, and nothing from before it', () => {
    const journal = new RoomJournal();
    const early = journal.mark();
    journal.record({ kind: 'emit', to: ['c:a'], event: 'message:new', payload: 1 });
    const mark = journal.mark();
    journal.record({ kind: 'emit', to: ['c:a'], event: 'message:new', payload: 2 });
    journal.record({ kind: 'emit', to: ['c:other'], event: 'message:new', payload: 3 });
    journal.record({ kind: 'emit', to: ['g:x', 'u:1'], event: 'user:updated', payload: 4 });
    journal.record({ kind: 'emit', to: ['c:a'], event: 'message:updated', payload: 5 });
    const { target, sent } = fakeSocket(AT_MARK);
    target.join(['g:x', 'c:a']);
    assert.equal(journal.replay(mark, target, AT_MARK), 2);
    // 3 is another converse's; 4 reached the socket through its user room already.
    assert.deepEqual(sent, [
      ['message:new', 2],
      ['message:updated', 5],
    ]);
    journal.release(early);
    assert.equal(journal.size, 0, 'the last mark given back empties it');
  });

  it('applies leaves and joins where they happened: a message before a leave is sent, one after it is not', () => {
    const journal = new RoomJournal();
    const mark = journal.mark();
    journal.record({ kind: 'emit', to: ['c:a'], event: 'message:new', payload: 'before' });
    journal.record({ kind: 'leave', of: ['u:1'], rooms: ['g:x', 'c:a'] });
    journal.record({ kind: 'emit', to: ['c:a'], event: 'message:new', payload: 'after' });
    journal.record({ kind: 'join', of: ['g:y'], rooms: ['c:new'] });
    journal.record({ kind: 'emit', to: ['c:new'], event: 'message:new', payload: 'new panel' });
    // The lookup answered before the leave and before the panel existed.
    const { target, sent } = fakeSocket(AT_MARK);
    target.join(['g:x', 'c:a', 'g:y']);
    journal.replay(mark, target, AT_MARK);
    assert.deepEqual(
      sent.map(([, p]) => p),
      ['before', 'new panel'],
    );
    assert.deepEqual([...target.rooms].sort(), ['c:new', 'g:y', 's:1', 'sid', 'u:1']);
  });

  it('does not send twice what a socket had live after being moved into a room while loading', () => {
    const journal = new RoomJournal();
    const mark = journal.mark();
    // A DM's first message moves its members' sockets in, then goes out: this socket had it live.
    journal.record({ kind: 'join', of: ['u:1'], rooms: ['c:dm'] });
    journal.record({ kind: 'emit', to: ['c:dm'], event: 'message:new', payload: 'live' });
    const { target, sent } = fakeSocket([...AT_MARK, 'c:dm']);
    target.join(['c:dm']);
    assert.equal(journal.replay(mark, target, AT_MARK), 0);
    assert.deepEqual(sent, []);
  });

  it('leaves out the socket an emit excepts', () => {
    const journal = new RoomJournal();
    const mark = journal.mark();
    journal.record({ kind: 'emit', to: ['c:a'], except: 'u:1', event: 'typing', payload: 1 });
    const { target, sent } = fakeSocket([...AT_MARK, 'c:a']);
    journal.replay(mark, target, AT_MARK);
    assert.deepEqual(sent, []);
  });

  it('drops its oldest entries past its bound and counts them', () => {
    const journal = new RoomJournal(3);
    const mark = journal.mark();
    for (let i = 0; i < 5; i += 1) journal.record({ kind: 'emit', to: ['c:a'], event: 'message:new', payload: i });
    assert.equal(journal.size, 3);
    assert.equal(journal.dropped, 2);
    const { target, sent } = fakeSocket([...AT_MARK, 'c:a']);
    journal.replay(mark, target, AT_MARK);
    assert.deepEqual(
      sent.map(([, p]) => p),
      [2, 3, 4],
    );
  });

  it('trims what every held mark has passed while others still load', () => {
    const journal = new RoomJournal();
    const first = journal.mark();
    for (let i = 0; i < 3000; i += 1) journal.record({ kind: 'emit', to: ['c:a'], event: 'message:new', payload: i });
    const second = journal.mark();
    journal.record({ kind: 'emit', to: ['c:a'], event: 'message:new', payload: 'last' });
    journal.release(first);
    assert.equal(journal.size, 1);
    const { target, sent } = fakeSocket([...AT_MARK, 'c:a']);
    journal.replay(second, target, AT_MARK);
    assert.deepEqual(sent, [['message:new', 'last']]);
    assert.equal(journal.size, 0);
  });
});
