// Servers started by the benchmark run under the test kit's tether; to signal
// or measure the Node process itself, find it in /proc.
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';

function parentPid(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/**
 * The pid of a Node process descended from this one whose environment has
 * `entry` (e.g. `NODE_ID=services-2` or `PORT=41234`), if any.
 */
export function findNodePid(entry: string): number | undefined {
  const node = realpathSync(process.execPath);
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return undefined;
  }
  for (const name of entries) {
    const pid = Number(name);
    try {
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      // The test kit's tether (bash) carries the same environment: only Node itself counts.
      if (!env.includes(entry) || readlinkSync(`/proc/${pid}/exe`) !== node) continue;
      for (let p = pid, depth = 0; p > 1 && depth < 10; depth += 1) {
        p = parentPid(p);
        if (p === process.pid) return pid;
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
  return undefined;
}
