import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeHeapSnapshot } from 'node:v8';
import { judge, type MemorySample } from '../src/capacity/soak.ts';
import { collectionGrowth, heapGrowth, summarizeHeapSnapshot } from '../src/lib/heap-snapshot.ts';

/** An hour of samples every 5 s: a heap that fills with garbage and drops at each GC, plus a steady trend. */
function hour(trendMiBPerHour: number, rssSwingMiB = 0): MemorySample[] {
  return Array.from({ length: 720 }, (_, i) => {
    const t = i * 5;
    const trend = (trendMiBPerHour * t) / 3600;
    return {
      t,
      // V8 commits and releases heap pages every few minutes (a ten-minute swing here).
      rssMiB: 380 + trend + rssSwingMiB * Math.sin(t / 100),
      heapUsedMiB: 120 + trend + ((i * 7) % 40),
      heapTotalMiB: 250,
      externalMiB: 45 + trend,
      arrayBuffersMiB: 35 + trend,
      handles: 172,
      eventLoopP99Ms: 12,
      sockets: 150,
    };
  });
}

class SoakProbe {
  readonly payload = 'x'.repeat(32) + Math.random();
}

describe('soak benchmark', () => {
  const span = { from: 600, to: 3590 };

  it('calls a GC sawtooth and V8 growing and shrinking its heap flat, and a steady climb not', () => {
    const steady = judge(hour(0, 30), span);
    assert.equal(steady.flat, true, JSON.stringify(steady.changes.rssMiB));
    assert.ok(Math.abs(steady.changes.heapUsedMiB.changePercent) < 1, 'the troughs, not the garbage');
    const leaking = judge(hour(100), span);
    assert.equal(leaking.flat, false);
    assert.ok(
      Math.abs(leaking.changes.externalMiB.slopePerHour - 100) < 1,
      `${leaking.changes.externalMiB.slopePerHour}`,
    );
  });

  it('names what grew between two heap snapshots, and the collection that holds it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'soak-test-'));
    const kept = new Map<number, SoakProbe>();
    try {
      const early = summarizeHeapSnapshot(writeHeapSnapshot(join(dir, 'early.heapsnapshot')));
      for (let i = 0; i < 20_000; i += 1) kept.set(i, new SoakProbe());
      const late = summarizeHeapSnapshot(writeHeapSnapshot(join(dir, 'late.heapsnapshot')));
      const probe = heapGrowth(early, late).find((g) => g.name === 'SoakProbe');
      assert.ok(probe, 'the class that grew is named');
      assert.equal(probe.countAfter - probe.countBefore, 20_000);
      const holder = collectionGrowth(early, late)[0];
      assert.equal(holder?.kind, 'Map');
      assert.ok(holder.bytesAfter > 20_000 * 8, `${holder.bytesAfter} bytes of table`);
      assert.equal(kept.size, 20_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
