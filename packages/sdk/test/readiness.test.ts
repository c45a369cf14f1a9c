import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Readiness } from '../src/index.ts';

describe('readiness', () => {
  it('is ready when every probe passes and names each failure otherwise', async () => {
    const readiness = new Readiness();
    readiness.add('a', async () => undefined);
    assert.deepEqual(await readiness.run(), { ready: true, checks: { a: 'ok' } });
    readiness.add('b', async () => {
      throw new Error('down');
    });
    readiness.add('c', () => new Promise(() => undefined));
    const report = await readiness.run(100);
    assert.equal(report.ready, false);
    assert.deepEqual(report.checks, { a: 'ok', b: 'down', c: 'no answer within 100 ms' });
  });
});
