import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

/** What a result was measured on: recorded with every benchmark result. */
export function machineFacts() {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' });
    if (dirty.trim() !== '') commit += '+changes';
  } catch {
    // Not a checkout.
  }
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    commit,
    date: new Date().toISOString(),
  };
}
