import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compareRuns } from '../src/capacity/verdict.ts';
import { checkoutRef, resolveRef } from '../src/capacity/worktree.ts';

describe('compareRuns', () => {
  it('calls one run each within ±5% noise, beyond it a change in the direction that counts', () => {
    assert.equal(compareRuns([100], [104], 'higher').verdict, 'same');
    assert.equal(compareRuns([100], [110], 'higher').verdict, 'better');
    assert.equal(compareRuns([100], [110], 'lower').verdict, 'worse');
    assert.equal(compareRuns([100], [90], 'lower').verdict, 'better');
    assert.equal(Math.round(compareRuns([200], [150], 'higher').delta * 100), -25);
  });

  it("calls a difference below the figure's resolution no change, whatever its percentage", () => {
    assert.equal(compareRuns([0.1], [0.04], 'lower', 0.1).verdict, 'same');
    assert.equal(compareRuns([0.1], [0.04], 'lower').verdict, 'better');
  });

  it('lets repeated runs decide: separate ranges are a change even under 5%, overlapping ones are noise even over', () => {
    const small = compareRuns([100, 101, 100.5], [103, 103.5, 104], 'higher');
    assert.equal(small.verdict, 'better');
    assert.ok(Math.abs(small.delta) < 0.05);
    const noisy = compareRuns([100, 130], [120, 140], 'higher');
    assert.equal(noisy.verdict, 'same');
    assert.ok(noisy.delta > 0.05);
  });

  it("does not call two runs apart a change when the gap is within the runs' own spread (an A/A case)", () => {
    // Request p99 of one commit against itself, two bounded runs each: apart, but by less than A's own scatter.
    const same = compareRuns([199.6, 229.2], [238.5, 248.1], 'lower');
    assert.equal(same.verdict, 'same');
    assert.match(same.why, /spread/);
  });
});

describe('checkoutRef', () => {
  it('refuses an unknown ref with a clear error', async () => {
    await assert.rejects(resolveRef('no-such-ref-anywhere'), /not a commit, branch or tag/);
  });

  it("checks a commit out beside this one, resolving workspace packages to the worktree's own code", async () => {
    const parent = mkdtempSync(join(tmpdir(), 'im-compare-'));
    const checkout = await checkoutRef('HEAD', parent, 'a');
    try {
      assert.equal(checkout.commit, await resolveRef('HEAD'));
      assert.equal(checkout.packages, 'linked');
      assert.ok(existsSync(join(checkout.dir, 'server/src/start.ts')));
      // @im/sdk inside the worktree is the worktree's packages/sdk, not this checkout's.
      assert.equal(
        realpathSync(join(checkout.dir, 'node_modules/@im/sdk')),
        realpathSync(join(checkout.dir, 'packages/sdk')),
      );
      assert.ok(existsSync(join(checkout.dir, 'node_modules/mongoose/package.json')));
    } finally {
      await checkout.remove();
    }
    assert.equal(existsSync(checkout.dir), false);
  });
});
