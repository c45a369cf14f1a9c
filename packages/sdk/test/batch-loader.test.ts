import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchLoader } from '../src/index.ts';

describe('batchLoader', () => {
  it('answers every lookup of one turn with one call over the distinct keys', async () => {
    const calls: string[][] = [];
    const load = batchLoader(async (keys: readonly string[]) => {
      calls.push([...keys]);
      return keys.map((k) => k.toUpperCase());
    });
    const answers = await Promise.all(['a', 'b', 'a', 'c'].map(load));
    assert.deepEqual(answers, ['A', 'B', 'A', 'C']);
    assert.deepEqual(calls, [['a', 'b', 'c']]);
  });

  it('never answers a lookup with a batch that started before it was made', async () => {
    let version = 0;
    let release: () => void = () => undefined;
    const load = batchLoader(async (keys: readonly string[]) => {
      const seen = version;
      await new Promise<void>((r) => (release = r));
      return keys.map((k) => `${k}@${seen}`);
    });
    const first = load('x');
    await new Promise((r) => setImmediate(r)); // the first batch is running
    version = 1; // a write lands while it runs
    const second = load('x');
    release();
    assert.equal(await first, 'x@0');
    await new Promise((r) => setImmediate(r));
    release();
    assert.equal(await second, 'x@1');
  });

  it('splits big turns and uses keyOf for identity', async () => {
    const sizes: number[] = [];
    const load = batchLoader(
      async (keys: ReadonlyArray<{ id: number }>) => {
        sizes.push(keys.length);
        return keys.map((k) => k.id * 2);
      },
      { keyOf: (k) => String(k.id), maxBatch: 3 },
    );
    const answers = await Promise.all([1, 2, 3, 4, 1].map((id) => load({ id })));
    assert.deepEqual(answers, [2, 4, 6, 8, 2]);
    assert.deepEqual(sizes, [3, 1]);
  });

  it('rejects every lookup of a failed batch', async () => {
    const load = batchLoader(async () => {
      throw new Error('database down');
    });
    await assert.rejects(load('a'), /database down/);
  });
});
