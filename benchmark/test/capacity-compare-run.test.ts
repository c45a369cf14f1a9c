// `npm run bench -- compare` end to end at toy size: the same commit as A and
// B (an A/A comparison), bounded runs of a few quick users. What is asserted
// is what the report holds, never the timings.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ACTION_KINDS, DEFAULT_CONFIG_PATH, type CapacityConfig } from '../src/capacity/config.ts';
import type { FigureVerdict } from '../src/capacity/compare-report.ts';
import type { CapacityResult } from '../src/capacity/types.ts';
import { resolveRef } from '../src/capacity/worktree.ts';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'im-compare-run-'));

function bench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { timeout: 280_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function quickConfig(): string {
  const c = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as CapacityConfig;
  c.actions = Object.fromEntries(ACTION_KINDS.map((k) => [k, 1])) as CapacityConfig['actions'];
  c.thinkSeconds = { min: 0.3, max: 1.5 };
  c.startRatePerSecond = 20;
  c.sampleSeconds = 2;
  c.settleSeconds = 4;
  const file = join(dir, 'quick.json');
  writeFileSync(file, JSON.stringify(c));
  return file;
}

describe('compare', () => {
  it('refuses a missing or unknown ref before checking anything out', async () => {
    const one = await bench(['compare', 'HEAD']);
    assert.equal(one.code, 2);
    assert.match(one.stderr, /two git refs/);
    const unknown = await bench(['compare', 'HEAD', 'no-such-ref-anywhere']);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /'no-such-ref-anywhere' is not a commit/);
  });

  it('runs both refs on the same dataset and writes the table, verdicts and side-by-side charts', async () => {
    const out = join(dir, 'report');
    const head = await resolveRef('HEAD');
    const run = await bench([
      'compare',
      'HEAD',
      'HEAD',
      '--modes',
      'bounded',
      // Eight, so that in 16 s some send usually reaches another simulated user online in
      // the same converse (the assertions hold either way).
      '--users',
      '8',
      '--duration',
      '16',
      '--config',
      quickConfig(),
      '--dataset-users',
      '20',
      '--dataset-groups',
      '4',
      '--dataset-messages',
      '500',
      '--seed',
      '3',
      '--out',
      out,
    ]);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    const json = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as {
      releases: Array<{ label: string; commit: string; runs: { bounded: CapacityResult[] } }>;
      verdicts: FigureVerdict[];
    };
    assert.deepEqual(
      json.releases.map((r) => [r.label, r.commit, r.runs.bounded.length]),
      [
        ['A', head, 1],
        ['B', head, 1],
      ],
    );
    // What each run did: messages sent and stored, none lost, no request failed.
    for (const r of json.releases) {
      const run = r.runs.bounded[0]!;
      assert.equal(run.summary.errors, 0);
      assert.ok((run.requestCounts.send?.count ?? 0) > 0, `${r.label} sent messages`);
      assert.equal(run.summary.lostMessages, 0);
      assert.equal(run.missedMessages, 0);
    }
    const figures = json.verdicts.map((v) => v.figure);
    for (const f of ['request average', 'request p99', 'store p99', 'server CPU']) {
      assert.ok(figures.includes(f), `${f} compared`);
    }
    // A live delivery needs another simulated user online in the sender's converse, which a
    // toy run may not bring about: broadcast p99 is compared exactly when both runs timed one.
    // (A run that timed none has no figure: NaN, written as null.)
    const delivered = json.releases.every((r) => Number.isFinite(r.runs.bounded[0]!.summary.broadcastP99Ms));
    assert.equal(figures.includes('broadcast p99'), delivered);
    for (const v of json.verdicts) assert.ok(['better', 'worse', 'same'].includes(v.verdict));
    const md = readFileSync(join(out, 'compare.md'), 'utf8');
    assert.match(md, /\| bounded \| request p99 \|/);
    const charts = [...md.matchAll(/!\[[^\]]*\]\(([^)]+\.svg)\)/g)].map((m) => m[1]!);
    assert.ok(charts.some((c) => c.startsWith('bounded-a-')) && charts.some((c) => c.startsWith('bounded-b-')));
    for (const c of charts) assert.ok(existsSync(join(out, c)), `${c} exists`);
    // The worktrees are gone afterwards.
    assert.doesNotMatch(await gitWorktrees(), /im-compare-/);
  });
});

function gitWorktrees(): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('git', ['worktree', 'list'], (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
}
