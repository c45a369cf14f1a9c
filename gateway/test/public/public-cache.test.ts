import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PublicCache } from '../../src/public/public-cache.ts';
import { prepareResponse, type PreparedResponse } from '../../src/public/prepared-response.ts';

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
    const gate = deferred<PreparedResponse>();
    const render = () => {
      renders += 1;
      return gate.promise;
    };
    const waiting = Array.from({ length: 50 }, () => cache.get('c1', 'page', render));
    gate.resolve(body);
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
    const gate = deferred<PreparedResponse>();
    const before = cache.get('c1', 'page', () => gate.promise);
    cache.forget(['c1']);
    // A request after the change does not join the render under way.
    const after = cache.get('c1', 'page', async () => fresh);
    gate.resolve(stale);
    assert.equal(await before, stale, 'who asked before the change gets what was read then');
    assert.equal(await after, fresh);
    assert.equal(cache.peek('c1', 'page'), fresh);
  });

  it('keeps a 404 until the converse changes, and retries after a failed render', async () => {
    const cache = new PublicCache();
    assert.equal(await cache.get('c1', 'atom', async () => null), null);
    assert.equal(cache.peek('c1', 'atom'), null);
    cache.forget(['c1']);
    assert.equal(cache.peek('c1', 'atom'), undefined);

    await assert.rejects(Promise.resolve(cache.get('c2', 'atom', () => Promise.reject(new Error('down')))));
    const body = await prepareResponse('up', 'text/plain', 'public');
    assert.equal(await cache.get('c2', 'atom', async () => body), body);
  });

  it('forgets only the converses named, and everything on clear', async () => {
    const cache = new PublicCache();
    const body = await prepareResponse('x', 'text/plain', 'public');
    await cache.get('a', 'page', async () => body);
    await cache.get('b', 'page', async () => body);
    cache.forget(['a']);
    assert.equal(cache.peek('a', 'page'), undefined);
    assert.equal(cache.peek('b', 'page'), body);
    cache.clear();
    assert.equal(cache.size, 0);
  });
});
