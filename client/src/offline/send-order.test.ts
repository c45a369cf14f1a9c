import { describe, expect, it } from 'vitest';
import { forgetAccountState } from '../state/account-state.ts';
import { inOrder } from './send-order.ts';

/** A send that finishes when told to. */
function held() {
  let finish!: () => void;
  let fail!: (err: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { done, finish, fail };
}

describe('sends of one converse, in order', () => {
  it('starts a send only after the one before it answered, failed or not', async () => {
    const started: string[] = [];
    const first = held();
    const second = held();
    const a = inOrder('c1', () => (started.push('a'), first.done));
    const b = inOrder('c1', () => (started.push('b'), second.done));
    const c = inOrder('c1', async () => void started.push('c'));
    await Promise.resolve();
    expect(started).toEqual(['a']);
    first.fail(new Error('timed out'));
    await a;
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    second.finish();
    await Promise.all([b, c]);
    expect(started).toEqual(['a', 'b', 'c']);
  });

  it('keeps converses apart: one waiting send holds back no other converse', async () => {
    const started: string[] = [];
    const slow = held();
    void inOrder('c1', () => (started.push('c1'), slow.done));
    await inOrder('c2', async () => void started.push('c2'));
    expect(started).toEqual(['c1', 'c2']);
    slow.finish();
  });

  it("forgets the previous account's chains at sign-out", async () => {
    const started: string[] = [];
    void inOrder('c1', () => (started.push('old'), new Promise<void>(() => undefined)));
    forgetAccountState();
    await inOrder('c1', async () => void started.push('new'));
    expect(started).toEqual(['old', 'new']);
  });
});
