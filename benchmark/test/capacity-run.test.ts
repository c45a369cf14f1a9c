// The capacity run end to end at toy sizes (a dataset of 20 users, a few
// simulated users for under half a minute, quick think times), and its parts
// on their own. Timings are never asserted: what happened, the result's
// shape, and the report's files are.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConverseSeqs } from '../src/capacity/agent-seqs.ts';
import {
  ACTION_KINDS,
  DEFAULT_CONFIG_PATH,
  loadCapacityConfig,
  validateCapacityConfig,
  type CapacityConfig,
} from '../src/capacity/config.ts';
import { Histogram } from '../src/capacity/histogram.ts';
import type { CapacityResult } from '../src/capacity/types.ts';

const RUN = fileURLToPath(new URL('../src/capacity/run.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'im-capacity-test-'));

/** The default configuration with quick users: an action every 0.3-1.5 s, every kind equally likely. */
function quickConfig(name: string, change: (c: CapacityConfig) => void = () => undefined): string {
  const c = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as CapacityConfig;
  c.actions = Object.fromEntries(ACTION_KINDS.map((k) => [k, 1])) as CapacityConfig['actions'];
  c.thinkSeconds = { min: 0.3, max: 1.5 };
  c.startRatePerSecond = 20;
  c.typing.seconds = { min: 0.1, max: 0.5 };
  c.reconnect.offlineSeconds = { min: 0.5, max: 2 };
  c.historyPageSize = 20;
  c.sampleSeconds = 2;
  c.settleSeconds = 4;
  change(c);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(c));
  return file;
}

const TOY_DATASET = ['--dataset-users', '20', '--dataset-groups', '4', '--dataset-messages', '2000', '--seed', '3'];

function capacity(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [RUN, ...args], { timeout: 240_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function runCapacity(name: string, args: string[]): Promise<CapacityResult & { file: string }> {
  const file = join(dir, `${name}-result.json`);
  const run = await capacity([...args, ...TOY_DATASET, '--out', file]);
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  return { ...(JSON.parse(readFileSync(file, 'utf8')) as CapacityResult), file };
}

/** Every chart the Markdown links is an SVG file beside it. */
function assertReport(result: { file: string }): string {
  const md = result.file.replace(/\.json$/, '.md');
  const text = readFileSync(md, 'utf8');
  const links = [...text.matchAll(/!\[[^\]]*\]\(([^)]+\.svg)\)/g)].map((m) => m[1]!);
  assert.ok(links.length >= 8, `charts linked: ${links.join(', ')}`);
  for (const link of links) {
    const svg = join(dirname(md), link);
    assert.ok(existsSync(svg), `${link} exists`);
    assert.match(readFileSync(svg, 'utf8'), /^<svg[^>]*>[\s\S]*<\/svg>\n$/);
  }
  return text;
}

describe('capacity run', () => {
  it('bounded: every action of the mix makes its requests, no errors, nothing lost, deliveries timed, a report', async () => {
    const result = await runCapacity('bounded', [
      '--mode',
      'bounded',
      '--users',
      '6',
      '--duration',
      '24',
      '--config',
      quickConfig('quick'),
    ]);
    assert.equal(result.mode, 'bounded');
    assert.equal(result.deployment, 'single');
    assert.equal(result.supportedUsers, 6);
    for (const action of ACTION_KINDS) assert.ok((result.actions[action] ?? 0) > 0, `${action} was done`);
    // What each action asks of the server (readOlder pages when the open converse has more than a page).
    const kinds = [
      'login',
      'connect',
      'sync',
      'groups',
      'unread',
      'history',
      'historyOlder',
      'ack',
      'send',
      'typing',
      'react',
      'edit',
      'upload',
      'sendFile',
      'userSearch',
      'dm',
    ];
    for (const kind of kinds) assert.ok((result.requestCounts[kind]?.count ?? 0) > 0, `${kind} requests were made`);
    for (const [kind, k] of Object.entries(result.requestCounts)) assert.equal(k.errors, 0, `${kind} errors`);
    assert.deepEqual(result.errorSamples, []);
    assert.equal(result.summary.errors, 0);
    assert.equal(result.summary.lostMessages, 0);
    assert.equal(result.missedMessages, 0);
    // Sends were delivered live (none lost, above); whether one reached another online member of
    // the same converse within a toy run is chance: the figure is a time when some were timed, else none (null).
    const broadcastP99 = result.summary.broadcastP99Ms as number | null;
    assert.ok(broadcastP99 === null || broadcastP99 > 0, `broadcast p99: ${broadcastP99}`);
    assert.ok(result.summary.storeP99Ms > 0, 'sends were timed');
    assert.ok(result.samples.length >= 8, `${result.samples.length} samples`);
    for (let i = 1; i < result.samples.length; i += 1) assert.ok(result.samples[i]!.t > result.samples[i - 1]!.t);
    assert.ok(result.samples.every((s) => s.users === 6));
    assert.ok(result.samples.some((s) => s.sockets > 0 && s.heapMiB > 0 && s.cpuCores >= 0));
    assert.ok(result.checks.some((c) => c.threshold === 'lostMessages' && c.held));
    assert.equal(result.loadGenerator.processes, 3);
    assert.ok(Number(result.machine.cores) >= 1);
    const md = assertReport(result);
    assert.match(md, /^# Capacity: bounded, single instance/);
    assert.match(md, /\*\*Bounded run: 6 users for 24 s\.\*\*/);
    assert.match(md, /## Configuration/);
  });

  it('unbounded: adds users step by step while the thresholds hold', async () => {
    // Thresholds on time far out of reach of a toy run: this test is about the steps, not the machine.
    const config = quickConfig('lenient', (c) => {
      c.thresholds = { ...c.thresholds, requestP99Ms: 60_000, requestAvgMs: 60_000, broadcastP99Ms: 60_000 };
    });
    const result = await runCapacity('unbounded', [
      '--mode',
      'unbounded',
      '--users',
      '2',
      '--step-users',
      '2',
      '--step-seconds',
      '8',
      '--window-seconds',
      '60',
      '--duration',
      '30',
      '--config',
      config,
    ]);
    assert.equal(result.mode, 'unbounded');
    const users = result.levels.map((l) => l.users);
    assert.ok(users.length >= 3, `levels ${users.join(', ')}`);
    users.forEach((n, i) => assert.equal(n, 2 + 2 * i));
    assert.ok(result.levels.slice(0, -1).every((l) => l.outcome === 'passed'));
    assert.deepEqual(result.breaks, []);
    assert.ok(result.supportedUsers > 0);
    assert.equal(result.converged, false, 'a 60 s window does not fit in 30 s');
    assert.ok(new Set(result.samples.map((s) => s.users)).size >= 3, 'the samples follow the steps');
    assert.equal(result.summary.lostMessages, 0);
    assertReport(result);
  });

  it('unbounded: an impossible threshold makes it step back', async () => {
    const config = quickConfig('impossible', (c) => {
      c.thresholds.requestAvgMs = 0.001;
    });
    const result = await runCapacity('impossible', [
      '--mode',
      'unbounded',
      '--users',
      '4',
      '--step-users',
      '2',
      '--step-seconds',
      '8',
      '--window-seconds',
      '10',
      '--duration',
      '30',
      '--config',
      config,
    ]);
    assert.deepEqual(
      result.levels.map((l) => [l.users, l.outcome]),
      [
        [4, 'broke'],
        [2, 'broke'],
      ],
    );
    // Both levels broke on the impossible threshold (on a loaded machine another may break beside it).
    assert.ok(result.breaks.filter((b) => b.threshold === 'requestAvgMs').length >= 2, JSON.stringify(result.breaks));
    assert.equal(result.supportedUsers, 0);
    assert.ok(result.checks.some((c) => c.threshold === 'requestAvgMs' && !c.held));
    const md = assertReport(result);
    assert.match(md, /Thresholds that broke/);
  });
});

describe('capacity parts', () => {
  it('the default configuration is valid; a broken one is refused with every problem named', () => {
    const config = loadCapacityConfig();
    assert.ok(ACTION_KINDS.every((k) => config.actions[k] >= 0));
    const raw = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as Record<string, unknown>;
    assert.throws(
      () =>
        validateCapacityConfig(
          {
            ...raw,
            thinkSeconds: { min: 5, max: 1 },
            actions: { ...(raw.actions as object), dance: 3 },
            historyPageSize: 500,
            reactions: [],
            sampleSeconds: undefined,
          },
          'test.json',
        ),
      (err: Error) =>
        /test\.json is not valid/.test(err.message) &&
        /thinkSeconds: min \(5\) is greater than max \(1\)/.test(err.message) &&
        /actions\.dance: unknown key/.test(err.message) &&
        /historyPageSize: must be at most 100 \(got 500\)/.test(err.message) &&
        /reactions: must be a non-empty list/.test(err.message) &&
        /sampleSeconds: must be a number/.test(err.message),
    );
    assert.throws(() => loadCapacityConfig(join(dir, 'missing.json')), /cannot read the capacity config/);
  });

  it('seq tracking: a gap is missed once overdue, filled gaps are not, a reconnect restarts the clock', () => {
    const seqs = new ConverseSeqs(10);
    seqs.see(11, 0);
    seqs.see(13, 0); // 12 missing
    seqs.see(12, 100); // arrived late, within the grace
    assert.equal(seqs.countOverdue(10_000, 5_000), 0);
    assert.equal(seqs.contiguous, 13);
    seqs.see(16, 1_000); // 14 and 15 missing
    assert.equal(seqs.countOverdue(2_000, 5_000), 0);
    seqs.restartClocks(5_000);
    assert.equal(seqs.countOverdue(9_000, 5_000), 0);
    assert.equal(seqs.countOverdue(10_000, 5_000), 2);
    assert.equal(seqs.countOverdue(20_000, 5_000), 0, 'counted once');
    seqs.see(14, 20_000);
    seqs.see(15, 20_000);
    assert.equal(seqs.missingCount, 0);
    assert.equal(seqs.contiguous, 16);
    seqs.expect(18, 21_000); // the server has 17 and 18, not seen yet
    assert.equal(seqs.countAllOpen(), 2);
    seqs.reset(30);
    assert.equal(seqs.missingCount, 0);
    assert.equal(seqs.contiguous, 30);
  });

  it('histogram: percentiles within 2%, merged over processes', () => {
    const a = new Histogram();
    const b = new Histogram();
    for (let v = 1; v <= 1000; v += 1) (v % 2 ? a : b).record(v);
    const all = Histogram.sum([a.toData(), b.toData()]);
    assert.equal(all.count, 1000);
    assert.equal(all.meanMs, 500.5);
    assert.ok(Math.abs(all.percentile(99) - 990) <= 990 * 0.02, String(all.percentile(99)));
    assert.ok(Math.abs(all.percentile(50) - 500) <= 500 * 0.02, String(all.percentile(50)));
    assert.equal(all.percentile(100), 1000);
    assert.ok(Number.isNaN(new Histogram().percentile(99)));
  });
});
