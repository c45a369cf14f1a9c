// `npm run bench -- fanout-routing` end to end at toy size: a cluster of
// three gateways, routed by room and one broadcasting to all. Counts are
// asserted (every delivery made; routed gateways received exactly what their
// sockets needed, broadcast ones everything); timings never are.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FanoutStep } from '../src/benches/fanout-routing.ts';
import { bench, readJson } from './cli-runner.ts';

const out = mkdtempSync(join(tmpdir(), 'im-bench-fanout-'));

describe('fanout-routing benchmark', () => {
  it('refuses an unknown mode and a share outside 0..1', async () => {
    const mode = await bench(['fanout-routing', '--modes', 'rooms,gossip']);
    assert.equal(mode.code, 2);
    assert.match(mode.stderr, /--modes takes distinct names of rooms, broadcast/);
    const split = await bench(['fanout-routing', '--split', '2']);
    assert.equal(split.code, 2);
    assert.match(split.stderr, /--split must be a share between 0 and 1/);
  });

  it('routed gateways receive only the events of groups with members on them; broadcast ones receive all', async () => {
    const file = join(out, 'fanout-routing.json');
    const run = await bench([
      'fanout-routing',
      '--gateways',
      '3',
      '--groups-per-gateway',
      '2',
      '--members',
      '3',
      '--messages',
      '3',
      '--processes',
      '1',
      '--out',
      file,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const result = readJson(file) as unknown as {
      steps: FanoutStep[];
      machine: { cores: number; node: string };
      loadGenerator: { processes: number };
    };
    assert.deepEqual(
      result.steps.map((s) => [s.mode, s.gateways, s.groups, s.sockets, s.messagesSent]),
      [
        ['rooms', 3, 6, 18, 18],
        ['broadcast', 3, 6, 18, 18],
      ],
    );
    for (const step of result.steps) {
      const what = `${step.mode}, ${step.gateways} gateways: ${JSON.stringify(step.perGateway)}`;
      assert.equal(step.sendErrors, 0, what);
      assert.equal(step.deliveries.expected, step.messagesSent * 3);
      assert.equal(step.deliveries.received, step.deliveries.expected, what);
      assert.equal(step.intakeMetric, 'im_gateway_room_events_received_total');
      assert.equal(step.perGateway.length, step.gateways);
      // Every group has 3 messages; each gateway's second group also has a member on the next gateway.
      assert.equal(step.splitGroups, step.gateways);
      assert.deepEqual(
        step.perGateway.map((r) => r.needed),
        step.perGateway.map(() => 9),
      );
      assert.ok(step.nats.outMsgs > 0 && step.nats.outBytes > 0 && step.subscriptions.nats > 0, what);
      assert.ok(step.cpuMsPerGateway.mean > 0, 'the gateways reported their CPU');
      if (step.mode === 'rooms') {
        // No gateway has members of every group (each needs 9 of 12 or 18): routed, it heard
        // none of the messages of the groups without members on it.
        for (const row of step.perGateway) {
          assert.equal(row.received, row.needed, what);
          assert.equal(row.natsRoomMsgs, row.received, 'its room connection carried what it received');
          assert.ok((row.roomSubscriptions ?? 0) > 0, what);
        }
        assert.ok((step.roomEventBytes ?? 0) > 0, what);
      } else {
        for (const row of step.perGateway) {
          assert.equal(row.received, step.messagesSent, what);
          assert.equal(row.natsRoomMsgs, null, 'no room connection');
        }
        assert.equal(step.roomEventBytes, null);
      }
    }
    assert.ok(result.machine.cores >= 1 && result.machine.node.startsWith('v'));
    assert.equal(result.loadGenerator.processes, 1 + 2);
    assert.match(readFileSync(file.replace(/\.json$/, '.svg'), 'utf8'), /needed by its sockets: 9</);
    assert.match(readFileSync(file.replace(/\.json$/, '-nats.svg'), 'utf8'), /NATS msgs out/);
  });
});
