import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { requireBinary } from './binaries.ts';
import { waitUntil } from './probes.ts';

const TETHER = fileURLToPath(new URL('../bin/tether.sh', import.meta.url));
const live = new Set<ChildProcess>();

// Last resort on any exit path: kill every server group still running.
process.once('exit', () => {
  for (const child of live) killGroup(child, 'SIGKILL');
});

export interface StartProcessOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /**
   * Run under bin/tether.sh, which stops the server when our end of its stdin
   * closes. Off for programs that watch their own stdin (the Java launcher).
   */
  tether?: boolean;
  /** Called for each line the process prints on stdout or stderr. */
  onLine?: (line: string) => void;
  /**
   * Run inside this network namespace (`ip netns exec`, which execs the
   * command, so signals reach it directly): the cluster fault tests' hosts.
   */
  netns?: string;
}

/** A server process in its own process group, stopped as a whole. */
export class ManagedProcess {
  readonly #child: ChildProcess;
  readonly #lines: string[] = [];
  readonly exited: Promise<number | null>;
  #exitCode: number | null | undefined;
  readonly name: string;

  constructor(name: string, program: string, programArgs: string[], options: StartProcessOptions = {}) {
    this.name = name;
    const [command, args] = options.netns
      ? [requireBinary('ip'), ['netns', 'exec', options.netns, program, ...programArgs]]
      : [program, programArgs];
    const tether = options.tether ?? true;
    this.#child = spawn(tether ? 'bash' : command, tether ? [TETHER, command, ...args] : args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    live.add(this.#child);
    for (const stream of [this.#child.stdout, this.#child.stderr]) {
      let partial = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const parts = (partial + chunk).split('\n');
        partial = parts.pop() ?? '';
        for (const line of parts) {
          this.#lines.push(line);
          if (this.#lines.length > 80) this.#lines.shift();
          options.onLine?.(line);
        }
      });
    }
    this.exited = new Promise((resolve) => {
      this.#child.once('exit', (code, signal) => {
        live.delete(this.#child);
        this.#exitCode = code ?? (signal ? null : 0);
        resolve(this.#exitCode);
      });
      this.#child.once('error', (err) => {
        this.#lines.push(`failed to start ${command}: ${err.message}`);
        live.delete(this.#child);
        this.#exitCode = null;
        resolve(null);
      });
    });
    // Never let an idle server keep the test process alive.
    this.#child.unref();
    for (const s of [this.#child.stdin, this.#child.stdout, this.#child.stderr]) {
      (s as unknown as { unref?: () => void } | null)?.unref?.();
    }
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  get running(): boolean {
    return this.#exitCode === undefined;
  }

  /** The last lines the process printed, for error messages. */
  output(): string {
    return this.#lines.join('\n');
  }

  /** SIGTERM to the group, SIGKILL after `graceMs`. Resolves once it is gone. */
  async stop(graceMs = 5000): Promise<void> {
    if (!this.running) return;
    // Unref'd so an idle server never keeps a test alive; while stopping, its
    // exit must keep this process alive, or a caller awaiting stop() at top
    // level ends with the await unsettled once the kill timer has fired.
    this.#child.ref();
    this.#child.stdin?.end();
    killGroup(this.#child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(this.#child, 'SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
    // The tether exits after its child; make sure nothing of the group is left.
    killGroup(this.#child, 'SIGKILL');
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

class ProcessExited extends Error {}

/** Waits until `probe` passes while the process runs; on failure stops it and reports its output. */
export async function waitForProcess(
  proc: ManagedProcess,
  probe: () => Promise<unknown>,
  timeoutMs = 30_000,
): Promise<void> {
  try {
    await waitUntil(
      proc.name,
      async () => {
        // A process that exited will never pass: said at once, not at the timeout.
        if (!proc.running) throw new ProcessExited(`${proc.name} exited before it was ready`);
        await probe();
      },
      timeoutMs,
      (err) => err instanceof ProcessExited,
    );
  } catch (err) {
    await proc.stop();
    throw new Error(`${(err as Error).message}\n--- ${proc.name} output ---\n${proc.output()}`);
  }
}
