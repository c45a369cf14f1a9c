// Servers started by the benchmark run under the test kit's tether; to signal
// or measure the Node process itself, find it in /proc.
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';

function parentPid(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/**
 * The pid of a Node process descended from this one whose environment has
 * `entry` (e.g. `NODE_ID=services-2` or `PORT=41234`), if any. Where several
 * have it (the local cluster's supervisor passes its PORT on to the gateway it
 * starts on that port), the one furthest down the tree: the node itself.
 */
export function findNodePid(entry: string): number | undefined {
  const node = realpathSync(process.execPath);
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return undefined;
  }
  let found: { pid: number; depth: number } | undefined;
  for (const name of entries) {
    const pid = Number(name);
    try {
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      // The test kit's tether (bash) carries the same environment: only Node itself counts.
      if (!env.includes(entry) || readlinkSync(`/proc/${pid}/exe`) !== node) continue;
      for (let p = pid, depth = 0; p > 1 && depth < 10; depth += 1) {
        p = parentPid(p);
        if (p !== process.pid) continue;
        if (!found || depth > found.depth) found = { pid, depth };
        break;
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found?.pid;
}

/**
 * CPU time (µs) a process has used so far, all its threads, from the
 * scheduler's nanosecond counters (the tick counts of /proc/PID/stat are
 * 10 ms). Threads that ended meanwhile are not counted.
 */
export function processCpuMicros(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ns / 1000;
}
