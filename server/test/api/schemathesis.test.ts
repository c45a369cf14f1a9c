import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * The operations that end the token a run uses (or every session of its
 * account): in a run, one of them would turn every later request into a 401,
 * which hides what those requests would have found. Each is covered by its
 * own tests (server/test/api/sessions.test.ts and users.test.ts).
 */
const TOKEN_ENDING = [
  'user.logout',
  'user.revokeSession',
  'user.logoutEverywhere',
  'user.changePassword',
  'user.deleteMe',
] as const;

type Operation = { operationId: string; responses: Record<string, unknown> };
type Doc = { paths: Record<string, Record<string, Operation>> };

/**
 * schemathesis.toml, plus: each operation whose document declares a 400 for
 * a request its schema allows (a rule no schema can say) expects that 400.
 */
function configFor(doc: Doc): string {
  const refusing = Object.values(doc.paths)
    .flatMap((ops) => Object.values(ops))
    .filter((op) => '400' in op.responses)
    .map((op) => op.operationId);
  return [
    readFileSync(CONFIG, 'utf8'),
    ...refusing.map(
      (id) =>
        `[[operations]]\ninclude-operation-id = "${id}"\n` +
        'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "429"]\n',
    ),
  ].join('\n');
}

/** Runs `st run` against the node's API document; resolves with its exit code and output. */
function schemathesis(
  base: string,
  doc: Doc,
  token: string,
  args: string[],
): Promise<{ code: number | null; output: string }> {
  const reports = mkdtempSync(join(tmpdir(), 'im-schemathesis-'));
  const config = join(reports, 'schemathesis.toml');
  writeFileSync(config, configFor(doc));
  return new Promise((resolve, reject) => {
    const child = spawn(
      ST,
      [
        '--config-file',
        config,
        'run',
        `${base}/api/openapi.json`,
        '--checks',
        'all',
        '--header',
        `Authorization: Bearer ${token}`,
        // Bounded: about 9,000 requests, the same ones each run.
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

  // About 9,000 requests: 5 to 12 minutes on a busy two-core machine.
  it(
    'finds no disagreement on any operation, with a token that stays valid throughout',
    { timeout: 15 * 60_000 },
    async () => {
      const { token } = await api.user('fuzz');
      const doc = (await (await fetch(`${api.base}/api/openapi.json`)).json()) as Doc;
      const run = await schemathesis(
        api.base,
        doc,
        token,
        TOKEN_ENDING.flatMap((id) => ['--exclude-operation-id', id]),
      );
      assert.equal(run.code, 0, run.output);
      // The token worked to the end: no answer of the run was a 401 for a token that had gone.
      assert.equal((await api.request('GET', '/api/users/me', { token })).status, 200);
      // Every documented operation was exercised, but the ones that end the token.
      const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
      assert.match(run.output, new RegExp(`Tested: ${operations - TOKEN_ENDING.length}\\b`), run.output);
    },
  );
});
