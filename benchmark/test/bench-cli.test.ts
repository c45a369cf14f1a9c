// The benchmark CLI end to end at toy sizes: it starts the platform, drives
// real socket.io clients in client processes, and writes a result that says
// what happened. Timings are never asserted; delivery and shape are.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bench, readJson } from './cli-runner.ts';

const out = mkdtempSync(join(tmpdir(), 'im-bench-test-'));

describe('benchmark CLI', () => {
  it('rejects an unknown benchmark and a malformed option with usage', async () => {
    const unknown = await bench(['no-such-bench']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /usage: npm run bench -- <name>/);
    assert.match(unknown.stderr, /broadcast/);
    const bad = await bench(['broadcast', '--members', 'many']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--members must be a positive integer/);
  });

  it('http: a seeded web-public feed, the same bytes from bare node:http, and 304s for its ETag', async () => {
    const file = join(out, 'http.json');
    const run = await bench([
      'http',
      '--seed-public',
      '--messages',
      '5',
      '--path',
      '/p/{panel}/feed.atom',
      '--accept-encoding',
      'br',
      '--seconds',
      '1',
      '--rounds',
      '1',
      '--connections',
      '4',
      '--conditional',
      '--out',
      file,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const result = readJson(file) as {
      path: string;
      headers: Record<'gateway' | 'bare', Record<string, string>>;
      summary: Array<{ which: string; requestsPerSecond: number; errors: number }>;
      conditional: { requests: number; notModified: number; other: number };
      ratio: number;
    };
    assert.match(result.path, /^\/p\/[0-9a-f]{24}\/feed\.atom$/);
    const { gateway, bare } = result.headers;
    assert.equal(gateway.status, '200');
    assert.equal(gateway['content-encoding'], 'br');
    assert.equal(gateway['content-type'], 'application/atom+xml; charset=utf-8');
    assert.deepEqual(bare, gateway, 'the bare server sends the same status, headers and bytes');
    for (const side of result.summary) {
      assert.ok(side.requestsPerSecond > 0, side.which);
      assert.equal(side.errors, 0, side.which);
    }
    assert.ok(result.ratio > 0);
    assert.ok(result.conditional.requests > 0);
    assert.equal(result.conditional.notModified, result.conditional.requests, 'nothing changed: every one is a 304');
  });

  it('broadcast: every member of every round gets the message once, and the result says so', async () => {
    const file = join(out, 'broadcast.json');
    const run = await bench(['broadcast', '--members', '20,40', '--rounds', '3', '--processes', '2', '--out', file]);
    assert.equal(run.code, 0, run.stderr);
    const result = readJson(file) as {
      rows: Array<{
        members: number;
        p50Ms: number;
        p99Ms: number;
        p100Ms: number;
        serverFanoutMs: number;
        lost: number;
        duplicates: number;
        roundP100Ms: number[];
      }>;
      machine: { cores: number; node: string; commit: string };
      loadGenerator: { processes: number; shareOfOneCore: number };
    };
    assert.deepEqual(
      result.rows.map((r) => r.members),
      [20, 40],
    );
    for (const row of result.rows) {
      assert.equal(row.lost, 0);
      assert.equal(row.duplicates, 0);
      assert.equal(row.roundP100Ms.length, 3);
      assert.ok(row.p50Ms > 0 && row.p50Ms <= row.p99Ms && row.p99Ms <= row.p100Ms, JSON.stringify(row));
      assert.ok(row.serverFanoutMs > 0, 'the gateway reported its fan-out time');
    }
    assert.ok(result.machine.cores >= 1 && result.machine.node.startsWith('v'));
    assert.equal(result.loadGenerator.processes, 3);
    assert.match(
      readFileSync(file.replace(/\.json$/, '.svg'), 'utf8'),
      /^<svg[^>]*>[\s\S]*p100 \(all members\)[\s\S]*<\/svg>\n$/,
    );
  });

  it('broadcast --arms: the gateway and bare socket.io (JSON and msgpack) take turns, every client gets every message once', async () => {
    const file = join(out, 'broadcast-arms.json');
    const run = await bench([
      'broadcast',
      '--members',
      '20',
      '--rounds',
      '2',
      '--processes',
      '2',
      '--arms',
      'gateway,bare,bare-msgpack',
      '--out',
      file,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const result = readJson(file) as {
      arms: string[];
      rows: Array<{ arm: string; members: number; lost: number; duplicates: number; roundP100Ms: number[] }>;
      ratios: Array<{ members: number; versus: string; medianRoundP100: number; p100: number }>;
    };
    assert.deepEqual(result.arms, ['gateway', 'bare', 'bare-msgpack']);
    assert.deepEqual(
      result.rows.map((r) => [r.arm, r.members, r.lost, r.duplicates, r.roundP100Ms.length]),
      [
        ['gateway', 20, 0, 0, 2],
        ['bare', 20, 0, 0, 2],
        ['bare-msgpack', 20, 0, 0, 2],
      ],
    );
    assert.deepEqual(
      result.ratios.map((q) => [q.members, q.versus]),
      [
        [20, 'bare'],
        [20, 'bare-msgpack'],
      ],
    );
    for (const q of result.ratios) assert.ok(q.medianRoundP100 > 0 && q.p100 > 0, JSON.stringify(q));
    const badArm = await bench(['broadcast', '--arms', 'gateway,uws']);
    assert.equal(badArm.code, 2);
    assert.match(badArm.stderr, /--arms takes distinct names/);
  });

  it('join-storm and throughput: every socket joins and syncs, every message is delivered to every member', async () => {
    const storm = join(out, 'storm.json');
    // Two source addresses: half the sockets come from 127.0.0.2.
    const joined = await bench([
      'join-storm',
      '--members',
      '30',
      '--processes',
      '2',
      '--source-addresses',
      '2',
      '--out',
      storm,
    ]);
    assert.equal(joined.code, 0, joined.stderr);
    const rows = (
      readJson(storm) as {
        rows: Array<{
          members: number;
          connected: number;
          failed: number;
          syncFailed: number;
          connectedSeconds: number;
          totalSeconds: number;
          firstBroadcast: { members: number; received: number; lost: number; duplicates: number };
        }>;
      }
    ).rows;
    assert.deepEqual(
      rows.map((r) => [r.members, r.connected, r.failed, r.syncFailed]),
      [[30, 30, 0, 0]],
    );
    // The message sent the moment all were connected reaches every one of them, once, live.
    assert.deepEqual(rows[0]!.firstBroadcast, {
      ...rows[0]!.firstBroadcast,
      members: 30,
      received: 30,
      lost: 0,
      duplicates: 0,
    });
    assert.ok(rows[0]!.connectedSeconds <= rows[0]!.totalSeconds);

    const ramp = join(out, 'throughput.json');
    const sent = await bench([
      'throughput',
      '--mixes',
      '10',
      '--users',
      '30',
      '--step-seconds',
      '2',
      '--start-rate',
      '20',
      '--steps',
      '2',
      '--out',
      ramp,
    ]);
    assert.equal(sent.code, 0, sent.stderr);
    const mix = (
      readJson(ramp) as {
        results: Array<{
          members: number;
          converses: number;
          steps: Array<{ acked: number; deliveries: number; persistedPerSecond: number; lost: number; failed: number }>;
        }>;
      }
    ).results[0]!;
    assert.equal(mix.members, 10);
    assert.equal(mix.converses, 3);
    assert.ok(mix.steps.length >= 1);
    for (const step of mix.steps) {
      assert.equal(step.lost, 0);
      assert.equal(step.failed, 0);
      assert.ok(step.persistedPerSecond > 0);
      // Every message reaches each of its converse's 10 members.
      assert.equal(step.deliveries, step.acked * 10);
    }
  });

  it('calls: two people in a LiveKit call receive each other, and the result says what LiveKit forwarded', async () => {
    const file = join(out, 'calls.json');
    const run = await bench([
      'calls',
      '--publishers',
      '2',
      '--shapes',
      'mesh',
      // LiveKit adds a track's bytes to its counters every 5 s: a 6 s window holds at least one.
      '--seconds',
      '6',
      '--warmup-seconds',
      '1',
      '--out',
      file,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const result = readJson(file) as {
      samples: Array<{ shape: string; publishers: number; tracksSubscribed: number; tracksExpected: number }> &
        Array<{ forwardedMbitPerSecond: number; receivedMbitPerSecond: number; serverRssMiB: number }>;
    };
    assert.equal(result.samples.length, 1);
    const [sample] = result.samples;
    assert.equal(sample!.shape, 'mesh');
    assert.equal(sample!.tracksExpected, 4, "two people, each receiving the other's camera and microphone");
    assert.equal(sample!.tracksSubscribed, 4);
    assert.ok(sample!.receivedMbitPerSecond > 0, 'LiveKit received media');
    assert.ok(sample!.forwardedMbitPerSecond > 0, 'LiveKit forwarded media');
    assert.ok(sample!.serverRssMiB > 0);
  });
});
