// The coordinator's handle on a bare socket.io server (swarm/bare-socketio-server.ts),
// the broadcast benchmark's reference arm.
import { fileURLToPath } from 'node:url';
import type { Message } from '@im/protocol';
import type { BareReply, BareRequest } from '../swarm/bare-socketio-server.ts';
import type { Parser } from '../swarm/protocol.ts';
import { startReferenceServer, type IpcChild } from './ipc-child.ts';

const SERVER = fileURLToPath(new URL('../swarm/bare-socketio-server.ts', import.meta.url));

export class BareSocketServer {
  readonly #ipc: IpcChild<BareRequest, BareReply>;
  /** Its base URL, once it listens. */
  readonly base: Promise<string>;

  constructor(parser: Parser) {
    ({ ipc: this.#ipc, base: this.base } = startReferenceServer<BareRequest, BareReply>(
      SERVER,
      [parser],
      'the bare socket.io server',
    ));
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
