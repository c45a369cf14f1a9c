import { fork, type ChildProcess, type ForkOptions } from 'node:child_process';

/**
 * A helper process of a benchmark (client swarm, bare server, push endpoint),
 * started with fork() and asked things over IPC: each request carries a
 * `reqId` its reply repeats; messages without one go to `onMessage`. A
 * request fails if the process exits first, or after `timeoutMs` if given.
 */
export class IpcChild<Request extends object, Reply extends object> {
  readonly child: ChildProcess;
  #nextId = 1;
  readonly #pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();

  constructor(file: string, args: string[], options: ForkOptions & { onMessage?: (m: Reply) => void } = {}) {
    const { onMessage, ...fork_ } = options;
    this.child = fork(file, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], ...fork_ });
    this.child.on('message', (m: Reply & { reqId?: number }) => {
      const waiting = m.reqId === undefined ? undefined : this.#pending.get(m.reqId);
      if (!waiting) return onMessage?.(m);
      this.#pending.delete(m.reqId!);
      waiting.resolve(m);
    });
    this.child.once('exit', (code) => {
      for (const { reject } of this.#pending.values()) reject(new Error(`${args.join(' ') || file} exited (${code})`));
      this.#pending.clear();
    });
  }

  call<R extends Reply = Reply>(request: Request, timeoutMs?: number): Promise<R> {
    const reqId = this.#nextId++;
    return new Promise<R>((resolve, reject) => {
      const timer = timeoutMs
        ? setTimeout(() => {
            this.#pending.delete(reqId);
            reject(new Error('a helper process does not answer'));
          }, timeoutMs)
        : undefined;
      this.#pending.set(reqId, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r as R);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.child.send({ ...request, reqId });
    });
  }

  /** The helper exits when its IPC channel closes. */
  close(): void {
    if (this.child.connected) this.child.disconnect();
  }
}

/**
 * A reference server of a benchmark (bare `node:http`, bare socket.io),
 * started as the platform is: the same Node, SERVER_NODE_OPTIONS if set, and
 * a session of its own (detached), so that the kernel's autogroup scheduling
 * treats it as it treats the server, not as part of the load generator's
 * group. `base` resolves to its URL once it says `{type: 'ready', port}`.
 */
export function startReferenceServer<Request extends object, Reply extends object>(
  file: string,
  args: string[],
  what: string,
): { ipc: IpcChild<Request, Reply>; base: Promise<string> } {
  let ready: (base: string) => void = () => undefined;
  const ipc = new IpcChild<Request, Reply>(file, args, {
    detached: true,
    execArgv: [],
    env: { ...process.env, NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS ?? '' },
    onMessage: (m) => {
      const message = m as { type?: string; port?: number };
      if (message.type === 'ready') ready(`http://127.0.0.1:${message.port}`);
    },
  });
  const base = new Promise<string>((resolve, reject) => {
    ready = resolve;
    ipc.child.once('exit', (code) => reject(new Error(`${what} exited (${code})`)));
  });
  return { ipc, base };
}
