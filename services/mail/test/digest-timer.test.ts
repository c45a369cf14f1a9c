import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DigestTimer } from '../src/digest/digest-timer.ts';

/** A promise and the function that settles it. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('digest timer', () => {
  it('runs when woken, never two runs at once, and runs again when woken during a run', async () => {
    const calls: Array<ReturnType<typeof deferred<number | undefined>>> = [];
    const called = [deferred(), deferred()];
    let running = 0;
    let most = 0;
    const timer = new DigestTimer(
      async () => {
        running += 1;
        most = Math.max(most, running);
        const d = deferred<number | undefined>();
        calls.push(d);
        called[calls.length - 1]?.resolve();
        const next = await d.promise;
        running -= 1;
        return next;
      },
      (err) => assert.fail(String(err)),
    );
    timer.start();
    await called[0]!.promise;
    timer.wake(Date.now()); // due again while the first run is busy
    calls[0]!.resolve(Date.now() + 3_600_000);
    await called[1]!.promise;
    assert.equal(most, 1, 'one run at a time');
    calls[1]!.resolve(Date.now() + 3_600_000);
    await timer.stop();
    assert.equal(calls.length, 2);
  });

  it('stop waits for the run in progress and leaves nothing armed', async () => {
    const first = deferred();
    const release = deferred<number | undefined>();
    const timer = new DigestTimer(
      async () => {
        first.resolve();
        return release.promise;
      },
      (err) => assert.fail(String(err)),
    );
    timer.start();
    await first.promise;
    const stopped = timer.stop();
    release.resolve(Date.now() + 86_400_000);
    await stopped;
    assert.equal(timer.armed, false, 'nothing left armed after stop');
    timer.wake(Date.now());
    assert.equal(timer.armed, false, 'a stopped timer stays stopped');
  });

  it('reports a failed run and keeps going', async () => {
    const errors: unknown[] = [];
    const failed = deferred();
    const second = deferred();
    let n = 0;
    const timer = new DigestTimer(
      async () => {
        n += 1;
        if (n === 1) throw new Error('database away');
        second.resolve();
        return undefined;
      },
      (err) => {
        errors.push(err);
        failed.resolve();
      },
    );
    timer.start();
    await failed.promise;
    timer.wake(Date.now());
    await second.promise;
    await timer.stop();
    assert.equal((errors[0] as Error).message, 'database away');
  });
});
