// The coordinator's handle on a bare socket.io server (swarm/bare-socketio-server.ts),
// the broadcast benchmark's reference arm.
import { fileURLToPath } from 'node:url';
import type { Message } from '@im/protocol';
import type { BareReply, BareRequest } from '../swarm/bare-socketio-server.ts';
import type { Parser } from '../swarm/protocol.ts';
import { IpcChild } from './ipc-child.ts';

const SERVER = fileURLToPath(new URL('../swarm/bare-socketio-server.ts', import.meta.url));

export class BareSocketServer {
  readonly #ipc: IpcChild<BareRequest, BareReply>;
  /** Its base URL, once it listens. */
  readonly base: Promise<string>;

  constructor(parser: Parser) {
    // Started as the platform is: the same Node, SERVER_NODE_OPTIONS if set, in a session of its
    // own (detached) so that the kernel's autogroup scheduling treats it as it treats the server,
    // not as part of the load generator's group.
    let ready: (base: string) => void = () => undefined;
    this.#ipc = new IpcChild(SERVER, [parser], {
      detached: true,
      execArgv: [],
      env: { ...process.env, NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS ?? '' },
      onMessage: (m) => {
        if (m.type === 'ready') ready(`http://127.0.0.1:${m.port}`);
      },
    });
    this.base = new Promise((resolve, reject) => {
      ready = resolve;
      this.#ipc.child.once('exit', (code) => reject(new Error(`the bare socket.io server exited (${code})`)));
    });
  }

  /** Its CPU so far (µs) and the duration of each room emit since the last call. */
  async stats(): Promise<{ cpuMicros: number; fanoutMs: number[] }> {
    const r = await this.#ipc.call<Extract<BareReply, { type: 'stats' }>>({ type: 'stats' }, 10_000);
    return { cpuMicros: r.cpuMicros, fanoutMs: r.fanoutMs };
  }

  /** From now on its messages carry these fields (a message the gateway sent: the same size on the wire). */
  async useTemplate(message: Message): Promise<void> {
    await this.#ipc.call({ type: 'template', message }, 10_000);
  }

  close(): void {
    this.#ipc.close();
  }
}
