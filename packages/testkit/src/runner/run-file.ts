// One test file in a `node --test` process of its own, its output kept until
// it ends so that files running side by side print whole, one after another.
import { spawn } from 'node:child_process';

export interface FileOutcome {
  file: string;
  ok: boolean;
  ms: number;
  /** Test counts from the spec reporter's closing lines. */
  tests: number;
  failed: number;
  output: string;
}

export function runFile(root: string, file: string, env: NodeJS.ProcessEnv, running: Set<() => void>) {
  const started = Date.now();
  return new Promise<FileOutcome>((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', '--test-timeout=300000', file], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stop = () => child.kill('SIGTERM');
    running.add(stop);
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('close', (code, signal) => {
      running.delete(stop);
      resolve({
        file,
        ok: code === 0 && !signal,
        ms: Date.now() - started,
        tests: count(output, 'tests'),
        failed: count(output, 'fail'),
        output,
      });
    });
  });
}

/** The spec reporter ends with lines such as `ℹ tests 12` and `ℹ fail 0`. */
function count(output: string, what: string): number {
  const match = new RegExp(`^ℹ ${what} (\\d+)$`, 'm').exec(output);
  return match ? Number(match[1]) : 0;
}
