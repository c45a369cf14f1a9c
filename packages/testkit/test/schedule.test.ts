import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runPool, type Job } from '../src/runner/schedule.ts';

/** Jobs that each run until the test lets them end, recording what ran beside what. */
function controlledJobs(specs: Array<{ name: string; slots?: number; alone?: boolean }>) {
  const running = new Set<string>();
  const seen: Array<{ started: string; beside: string[] }> = [];
  const release = new Map<string, () => void>();
  let onStart: () => void = () => {};
  const jobs: Array<Job<string>> = specs.map(({ name, slots = 1, alone = false }) => ({
    slots,
    alone,
    run: () =>
      new Promise<string>((resolve) => {
        seen.push({ started: name, beside: [...running] });
        running.add(name);
        release.set(name, () => {
          running.delete(name);
          resolve(name);
        });
        onStart();
      }),
  }));
  /** Resolves once `name` has started. */
  const started = (name: string) =>
    new Promise<void>((resolve) => {
      const check = () => (release.has(name) ? resolve() : (onStart = check));
      check();
    });
  const end = (name: string) => release.get(name)!();
  return { jobs, seen, running, started, end };
}

describe('the runner pool', () => {
  it('runs as many one-slot files as it has slots, the next as soon as one ends', async () => {
    const c = controlledJobs([{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }]);
    const all = runPool(c.jobs, 3);
    await c.started('c');
    assert.deepEqual([...c.running], ['a', 'b', 'c']);
    c.end('b');
    await c.started('d');
    assert.deepEqual([...c.running].sort(), ['a', 'c', 'd']);
    for (const n of ['a', 'c', 'd']) c.end(n);
    assert.deepEqual(await all, ['a', 'b', 'c', 'd']);
  });

  it('gives a two-slot file two slots, letting a one-slot file pass it while only one is free', async () => {
    const c = controlledJobs([{ name: 'one' }, { name: 'one-b' }, { name: 'browser', slots: 2 }, { name: 'small' }]);
    const all = runPool(c.jobs, 3);
    await c.started('small');
    assert.deepEqual([...c.running], ['one', 'one-b', 'small']);
    c.end('one');
    c.end('one-b');
    await c.started('browser');
    assert.deepEqual([...c.running].sort(), ['browser', 'small']);
    c.end('small');
    c.end('browser');
    await all;
  });

  it('runs an alone file with nothing beside it, and nothing else starts until it ends', async () => {
    const c = controlledJobs([{ name: 'a' }, { name: 'b' }, { name: 'solo', alone: true }, { name: 'c' }]);
    const all = runPool(c.jobs, 3);
    await c.started('b');
    assert.deepEqual([...c.running], ['a', 'b'], 'the alone file waits, and so does the file behind it');
    c.end('a');
    c.end('b');
    await c.started('solo');
    assert.deepEqual(c.seen.find((s) => s.started === 'solo')!.beside, []);
    assert.deepEqual([...c.running], ['solo']);
    c.end('solo');
    await c.started('c');
    c.end('c');
    assert.deepEqual(await all, ['a', 'b', 'solo', 'c']);
  });
});
