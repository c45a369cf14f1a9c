import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startRedis } from '../src/index.ts';

describe('managed processes', () => {
  it('stop() leaves no process behind', async () => {
    const redis = await startRedis();
    const pid = redis.process.pid!;
    assert.doesNotThrow(() => process.kill(-pid, 0), 'the server group is alive while running');
    await redis.stop();
    assert.throws(() => process.kill(-pid, 0), /ESRCH/, 'no member of the server group is left');
  });

  it('stop() awaited at top level outlives a process that ignores SIGTERM', async () => {
    const { execFile } = await import('node:child_process');
    // The stubborn process is killed after the grace time; the caller must still see stop() settle.
    const script = `
      import { ManagedProcess } from ${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)};
      const p = new ManagedProcess('stubborn', process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); console.log('up')"]);
      while (!p.output().includes('up')) await new Promise((r) => setTimeout(r, 20));
      await p.stop(300);
      console.log('stopped', p.running);
    `;
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 30_000 }, (err, out) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: out }),
      );
    });
    assert.equal(code, 0);
    assert.equal(stdout.trim(), 'stopped false');
  });

  it('a server dies with its parent even when the parent is killed with SIGKILL', async () => {
    const { spawn } = await import('node:child_process');
    const script = `
      import { startRedis } from ${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)};
      const r = await startRedis();
      console.log(String(r.process.pid));
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      child.once('exit', () => reject(new Error('child exited early')));
    });
    assert.doesNotThrow(() => process.kill(-pid, 0));
    child.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    let alive = true;
    while (alive && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      try {
        process.kill(-pid, 0);
      } catch {
        alive = false;
      }
    }
    assert.equal(alive, false, 'redis-server was left running after its parent was killed');
  });
});
