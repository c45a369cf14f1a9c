// What the import and export benchmarks share: the single instance on the
// embedded store in a DATA_DIR of the run's own, with an account to own what
// is imported, and `npm run import` run exactly as an operator runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '@im/dev-servers';
import { api } from './api.ts';
import { BENCH_ENV, runnerEntry, THIS_ROOT } from './target.ts';

export interface EmbeddedWithOwner {
  server: ServerProcess;
  /** The platform's settings: `npm run import` needs the same to find its database. */
  env: Record<string, string>;
  owner: { username: string; token: string };
}

export async function startEmbeddedWithOwner(dataDir: string, username: string): Promise<EmbeddedWithOwner> {
  const env = {
    ...BENCH_ENV,
    DATA_DIR: dataDir,
    DEV_DATABASE: 'file',
    SECRET: randomBytes(32).toString('base64url'),
  };
  const server = await startServerProcess(runnerEntry(THIS_ROOT, 'start.ts'), env);
  try {
    const { token } = await api<{ token: string }>(server.base, 'POST', '/api/auth/register', undefined, {
      username,
      // A fresh one per run: the account lives only as long as the run's DATA_DIR.
      password: randomBytes(18).toString('base64url'),
    });
    return { server, env, owner: { username, token } };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

/**
 * `npm run import -- <kind> <path> --owner <username>`: the package's script
 * itself (its node flags included), each step exec'ing the next, so the
 * child's pid is the importer's own (for its RSS).
 */
export function spawnImport(
  env: Record<string, string>,
  kind: string,
  path: string,
  owner: string,
  stdio: ['ignore', 'pipe' | 'ignore', 'pipe' | 'inherit'],
): ChildProcess {
  const script = (JSON.parse(readFileSync(join(THIS_ROOT, 'package.json'), 'utf8')) as { scripts: { import: string } })
    .scripts.import;
  return spawn('bash', ['-c', `exec ${script} "$@"`, 'import', kind, path, '--owner', owner], {
    cwd: THIS_ROOT,
    env: { ...process.env, ...env, NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS ?? '' },
    stdio,
  });
}
