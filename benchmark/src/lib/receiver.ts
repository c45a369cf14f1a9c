// A loopback stand-in for an outside service the server sends to (a push
// service, a webhook receiver): a bare node:http server in a child process of
// its own, so counting requests never shares an event loop with the load
// generator. The benchmark asks it for its counts over IPC.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IpcChild } from './ipc-child.ts';

/** What every receiver reports beside its own counts. */
export interface ReceiverBase {
  /** TCP connections accepted since the process started. */
  connections: number;
  /** The receiver process's own CPU (user + system). */
  cpuMicros: number;
}

type Reply<S> = { type: 'ready'; port: number } | { type: 'stats'; reqId: number; stats: S & ReceiverBase };

/**
 * The child's side: serves `handle` on a free loopback port and answers each
 * IPC command with `answer(command)`. It exits when the IPC channel closes.
 */
export function serveReceiver<C extends object, S extends object>(
  handle: RequestListener,
  answer: (command: C) => S,
): void {
  let connections = 0;
  // Outside services keep connections open for a long time; so does this one.
  const server = createServer({ keepAliveTimeout: 65_000 }, handle);
  server.on('connection', () => {
    connections += 1;
  });
  process.on('message', (m: C & { reqId: number }) => {
    const own = answer(m);
    const cpu = process.cpuUsage();
    const reply: Reply<S> = {
      type: 'stats',
      reqId: m.reqId,
      stats: { ...own, connections, cpuMicros: cpu.user + cpu.system },
    };
    process.send!(reply);
  });
  process.on('disconnect', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => {
    process.send!({ type: 'ready', port: (server.address() as AddressInfo).port } satisfies Reply<S>);
  });
}

/** The benchmark's side: forks `file flag` (whose entry calls serveReceiver) and asks it things. */
export class Receiver<C extends object, S extends object> {
  readonly #ipc: IpcChild<C, Reply<S>>;
  readonly port: Promise<number>;

  /** `name` says what it stands for in errors ("the push endpoint"). */
  constructor(file: string, flag: string, name: string) {
    // A session of its own (detached), like the server: with the kernel's autogroup scheduling it
    // gets its own CPU share instead of splitting ours. It exits when our IPC channel closes.
    let ready: (port: number) => void = () => undefined;
    this.#ipc = new IpcChild(file, [flag], {
      detached: true,
      onMessage: (m) => {
        if (m.type === 'ready') ready(m.port);
      },
    });
    this.port = new Promise((resolve, reject) => {
      ready = resolve;
      this.#ipc.child.once('exit', (code) => reject(new Error(`${name} process exited (${code})`)));
    });
  }

  /** Sends one command; the receiver answers with its counts. */
  async ask(command: C): Promise<S & ReceiverBase> {
    return (await this.#ipc.call<Extract<Reply<S>, { type: 'stats' }>>(command, 10_000)).stats;
  }

  close(): void {
    this.#ipc.close();
  }
}
