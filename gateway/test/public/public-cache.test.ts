import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PublicCache, type Render } from '../../src/public/public-cache.ts';
import { prepareResponse } from '../../src/public/prepared-response.ts';

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe('PublicCache', () => {
  it('renders once for any number of concurrent misses, then answers from memory', async () => {
    const cache = new PublicCache();
    const body = await prepareResponse('hello', 'text/plain', 'public');
    let renders = 0;
    const gate = deferred<Render>();
    const render = () => {
      renders += 1;
      return gate.promise;
    };
    const waiting = Array.from({ length: 50 }, () => cache.get('c1', 'page', render));
    assert.ok(cache.holds('c1', 'page'), 'a render under way starts no other');
    gate.resolve({ rendered: body });
    const answers = await Promise.all(waiting);
    assert.equal(renders, 1);
    assert.ok(answers.every((a) => a === body));
    assert.equal(cache.peek('c1', 'page'), body);
    assert.equal(cache.get('c1', 'page', render), body, 'a hit is no promise');
    assert.equal(renders, 1);
  });

  it('never keeps a render that started before the converse changed', async () => {
    const cache = new PublicCache();
    const stale = await prepareResponse('old', 'text/plain', 'public');
    const fresh = await prepareResponse('new', 'text/plain', 'public');
    const gate = deferred<Render>();
    const before = cache.get('c1', 'page', () => gate.promise);
    cache.forget(['c1']);
    // A request after the change does not join the render under way.
    const after = cache.get('c1', 'page', async () => ({ rendered: fresh }));
    gate.resolve({ rendered: stale, newestSeq: 7 });
    assert.equal(await before, stale, 'who asked before the change gets what was read then');
    assert.equal(await after, fresh);
    assert.equal(cache.peek('c1', 'page'), fresh);
    assert.equal(cache.newestSeq('c1'), undefined, 'nor what it learnt');
  });

  it('keeps a 404 until the converse changes, and retries after a failed render', async () => {
    const cache = new PublicCache();
    assert.equal(await cache.get('c1', 'atom', async () => ({ rendered: null })), null);
    assert.equal(cache.peek('c1', 'atom'), null);
    cache.forget(['c1']);
    assert.equal(cache.peek('c1', 'atom'), undefined);

    await assert.rejects(Promise.resolve(cache.get('c2', 'atom', () => Promise.reject(new Error('down')))));
    const body = await prepareResponse('up', 'text/plain', 'public');
    assert.equal(await cache.get('c2', 'atom', async () => ({ rendered: body })), body);
  });

  it('forgets only the converses named', async () => {
    const cache = new PublicCache();
    const body = await prepareResponse('x', 'text/plain', 'public');
    await cache.get('a', 'page', async () => ({ rendered: body }));
    await cache.get('b', 'page', async () => ({ rendered: body }));
    cache.forget(['a']);
    assert.equal(cache.peek('a', 'page'), undefined);
    assert.equal(cache.peek('b', 'page'), body);
  });

  it('forgets on a profile change only the converses showing that user, and renders under way', async () => {
    const cache = new PublicCache();
    const body = await prepareResponse('x', 'text/plain', 'public');
    await cache.get('a', 'page', async () => ({ rendered: body, shows: ['alice', 'bob'] }));
    await cache.get('b', 'page', async () => ({ rendered: body, shows: ['bob'] }));
    const gate = deferred<Render>();
    const underWay = cache.get('c', 'page', () => gate.promise);
    cache.forgetShowing('alice');
    gate.resolve({ rendered: body, shows: ['carol'] });
    await underWay;
    assert.equal(cache.peek('a', 'page'), undefined);
    assert.equal(cache.peek('b', 'page'), body);
    assert.equal(cache.peek('c', 'page'), undefined, 'it may have read the old profile');
  });

  it('remembers the newest seq a render or a read learnt until the converse changes', async () => {
    const cache = new PublicCache();
    assert.equal(cache.newestSeq('a'), undefined);
    assert.equal(await cache.learnNewestSeq('a', async () => 12), 12);
    assert.equal(cache.newestSeq('a'), 12);
    cache.forget(['a']);
    assert.equal(cache.newestSeq('a'), undefined);
    await cache.get('a', 'page', async () => ({ rendered: null, newestSeq: 3 }));
    assert.equal(cache.newestSeq('a'), 3);
  });

  it('keeps its bytes within the bound, least recently used converses first, and counts what goes', async () => {
    const page = await prepareResponse('x'.repeat(20_000), 'text/plain', 'public');
    const one = Object.values(page.bodies).reduce((sum, b) => sum + b.length, 0);
    const dropped: string[] = [];
    const cache = new PublicCache(2000, (id) => dropped.push(id), 3 * one);
    for (const id of ['a', 'b', 'c']) await cache.get(id, 'page', async () => ({ rendered: page }));
    assert.equal(cache.bytes, 3 * one);
    cache.peek('a', 'page');
    cache.get('a', 'page', async () => ({ rendered: page }));
    await cache.get('d', 'page', async () => ({ rendered: page }));
    assert.deepEqual(dropped, ['b'], 'the least recently used went');
    assert.equal(cache.bytes, 3 * one);
    assert.equal(cache.size, 3);
    cache.forget(['a', 'c', 'd']);
    assert.equal(cache.bytes, 0, 'nothing is counted once every converse went');
  });
});
