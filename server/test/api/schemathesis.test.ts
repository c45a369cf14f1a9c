import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { LiveKitServerHandle } from '@im/dev-servers';
import { startApiWithLiveKit } from '../calls/with-livekit.ts';
import type { ApiHarness } from './harness.ts';

/** Where scripts/setup.sh (test profile) installs schemathesis. */
const VERSION = '4.32.5';
const CACHE = process.env.IM_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'im-platform');
const ST = join(CACHE, 'schemathesis', VERSION, 'bin', 'st');
const CONFIG = fileURLToPath(new URL('./schemathesis.toml', import.meta.url));

/** Runs `st run` against the node's API document; resolves with its exit code and output. */
function schemathesis(base: string, token: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const reports = mkdtempSync(join(tmpdir(), 'im-schemathesis-'));
  return new Promise((resolve, reject) => {
    const child = spawn(
      ST,
      [
        '--config-file',
        CONFIG,
        'run',
        `${base}/api/openapi.json`,
        '--checks',
        'all',
        '--header',
        `Authorization: Bearer ${token}`,
        // Bounded: about 2,500 requests, under a minute on two cores, and the same ones each run.
        '--max-examples',
        '30',
        '--seed',
        '1',
        '--no-color',
        '--report-dir',
        reports,
        ...args,
      ],
      { cwd: reports, env: { ...process.env, SCHEMATHESIS_HOOKS: '' } },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      rmSync(reports, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

/**
 * The API document the server keeps: schemathesis, with all its checks,
 * against a single instance. Any disagreement between /api/openapi.json and
 * what the server does (a status, a body, a content type, a rule the
 * document does not declare, a method it does not list) fails this test
 * with schemathesis's report.
 */
describe('the API document against the server (schemathesis, all checks)', () => {
  let api: ApiHarness;
  let livekit: LiveKitServerHandle;
  before(async () => {
    assert.ok(existsSync(ST), `schemathesis ${VERSION} is not installed at ${ST}: run 'bash scripts/setup.sh test'`);
    // Calls on, with a real LiveKit: their routes answer as they do in use, not 503.
    ({ api, livekit } = await startApiWithLiveKit(import.meta.url));
  });
  after(async () => {
    await api?.close();
    await livekit?.stop();
  });

  it('finds no disagreement on any operation', async () => {
    const { token } = await api.user('fuzz');
    // Deleting the account would end the token every other operation uses: it has its own run.
    const run = await schemathesis(api.base, token, ['--exclude-operation-id', 'user.deleteMe']);
    assert.equal(run.code, 0, run.output);
    // Every documented operation was exercised (all but the one run on its own below).
    const doc = (await (await fetch(`${api.base}/api/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    assert.match(run.output, new RegExp(`Tested: ${operations - 1}\\b`), run.output);
  });

  it('finds no disagreement on deleting an account (with an account of its own)', async () => {
    const { token } = await api.user('leave');
    const run = await schemathesis(api.base, token, [
      '--include-operation-id',
      'user.deleteMe',
      // One operation has no links to follow.
      '--phases',
      'examples,coverage,fuzzing',
    ]);
    assert.equal(run.code, 0, run.output);
  });
});
