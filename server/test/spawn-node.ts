import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const START = fileURLToPath(new URL('../src/start.ts', import.meta.url));
export const CLUSTER = fileURLToPath(new URL('../src/cluster.ts', import.meta.url));

export interface SpawnedNode {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first capture of `pattern` in the output. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

/** Runs a runner entry point as its own process, the way an operator would. */
export function spawnNode(script: string, env: Record<string, string | undefined>, args: string[] = []): SpawnedNode {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(PORT|HOST|SECRET|MONGO_URL|REDIS_URL|TRANSPORTER|SERVICES|NODE_ID|NAMESPACE|DATA_DIR)$/.test(k),
    ),
  );
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...clean, NODE_ENV: 'test', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const w of waiters) w();
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    for (const w of waiters) w();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(out + err);
          if (match) {
            clearTimeout(timer);
            resolve(match[1] ?? match[0]);
          }
        };
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${pattern}\n${out}\n${err}`)),
          timeoutMs,
        );
        waiters.push(check);
        void exited.then(() => setTimeout(() => reject(new Error(`exited before ${pattern}\n${out}\n${err}`)), 50));
        check();
      }),
  };
}

/** Whether a process (or process group, with a negative id) still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls /ready until it answers 200 (services may still be starting when the gateway listens). */
export async function waitReady(base: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const res = await fetch(`${base}/ready`).catch((err: unknown) => ({ status: 0, text: async () => String(err) }));
    if (res.status === 200) return;
    last = `${res.status} ${await res.text()}`;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${base}/ready never answered 200: ${last}`);
}

/**
 * `count` consecutive free ports (PORT .. PORT+count-1); answers the first.
 * Tried below the kernel's ephemeral range, where outgoing connections on a
 * busy machine leave few runs free.
 */
export async function freePortRun(count: number): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const probe = createServer().once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
  for (let i = 0; i < 50; i += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    let all = true;
    for (let next = 0; next < count && all; next += 1) all = await free(port + next);
    if (all) return port;
  }
  throw new Error(`no ${count} consecutive free ports`);
}

/** Two consecutive free ports, for PORT and PORT+1. */
export const freePortPair = () => freePortRun(2);
