// `npm run bench -- webhooks` end to end at toy sizes: outgoing webhooks of
// the single instance deliver every message to every hook once, signed with
// its secret. Timings are never asserted; delivery and the result's shape are.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { WebhooksResult } from '../src/benches/webhooks.ts';
import { bench, readJson } from './cli-runner.ts';

const out = mkdtempSync(join(tmpdir(), 'im-bench-webhooks-'));

async function runWebhooks(name: string, args: string[]): Promise<WebhooksResult> {
  const file = join(out, `${name}.json`);
  const run = await bench(['webhooks', ...args, '--out', file]);
  assert.equal(run.code, 0, run.stderr);
  return readJson(file) as unknown as WebhooksResult;
}

/** Every delivery arrived once, correctly signed and well formed. */
function assertDelivered(r: WebhooksResult, expected: number): void {
  assert.equal(r.expected, expected);
  assert.equal(r.received, expected);
  assert.equal(r.missing, 0);
  assert.equal(r.duplicates, 0);
  assert.equal(r.unexpected, 0);
  assert.equal(r.badSignatures, 0);
  assert.equal(r.malformed, 0);
  assert.equal(r.sends.errors, 0);
  assert.ok((r.arrivals.deliveriesPerSecond ?? 0) > 0, JSON.stringify(r.arrivals));
}

describe('webhooks benchmark', () => {
  it('refuses more hooks than a group may have, and a receiver that fails every first attempt', async () => {
    const many = await bench(['webhooks', '--hooks', '21']);
    assert.equal(many.code, 2);
    assert.match(many.stderr, /at most 20 outgoing webhooks/);
    const always = await bench(['webhooks', '--fail-every', '1']);
    assert.equal(always.code, 2);
    assert.match(always.stderr, /--fail-every must be 2 or more/);
  });

  it('delivers every message to every hook once, signed with its secret', async () => {
    const r = await runWebhooks('webhooks', ['--deliveries', '200', '--hooks', '4']);
    assertDelivered(r, 200);
    assert.equal(r.answered500, 0);
    assert.equal(r.repeats, 0);
    // 4 hooks × the newest 50 entries of each: all 200, all delivered.
    assert.deepEqual(r.deliveryLog.byStatus, { delivered: 200 });
  });

  it('--fail-every: the first attempts answered 500 are retried and arrive once', async () => {
    const r = await runWebhooks('webhooks-retries', ['--deliveries', '200', '--hooks', '4', '--fail-every', '5']);
    assertDelivered(r, 200);
    // Every 5th first attempt per hook: 10 of each hook's 50.
    assert.equal(r.answered500, 40);
    assert.equal(r.repeats, 40);
    assert.equal(r.deliveryLog.deliveredAfterRetry, 40);
  });
});
