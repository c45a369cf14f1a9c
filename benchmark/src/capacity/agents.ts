// The coordinator's handle on the client processes of a capacity run: which
// dataset users are simulated, in which process, against which gateway;
// adds and removes users; collects each process's figures.
import { fileURLToPath } from 'node:url';
import { IpcChild } from '../lib/ipc-child.ts';
import type { AgentCommand, AgentDataset, AgentReply, FinishReport, UserSlot, WindowReport } from './agent-protocol.ts';
import type { CapacityConfig } from './config.ts';

const AGENT = fileURLToPath(new URL('./agent-process.ts', import.meta.url));

/** Sockets per loopback source address: well under the ~28k ephemeral ports of one address. */
const SOCKETS_PER_ADDRESS = 20_000;

type ReplyOf<T extends AgentReply['type']> = Extract<AgentReply, { type: T }>;

export interface FinishTotals {
  usersChecked: number;
  missedAtEnd: number;
  lost: number;
  lostSamples: string[];
  checkErrors: number;
}

export class AgentPool {
  readonly #children: Array<IpcChild<AgentCommand, AgentReply>>;
  readonly #gateways: readonly string[];
  /** Users 0..active-1 of the dataset are running. */
  #active = 0;
  #cpuMicros: number[];

  constructor(processes: number, gateways: readonly string[]) {
    this.#gateways = gateways;
    this.#children = Array.from(
      { length: processes },
      () => new IpcChild<AgentCommand, AgentReply>(AGENT, [], { serialization: 'advanced' }),
    );
    this.#cpuMicros = this.#children.map(() => 0);
  }

  get processes(): number {
    return this.#children.length;
  }

  get users(): number {
    return this.#active;
  }

  /** Total CPU of the client processes so far (µs), as of their last report. */
  get cpuMicros(): number {
    return this.#cpuMicros.reduce((s, v) => s + v, 0);
  }

  async #call<T extends AgentReply['type']>(child: number, cmd: AgentCommand, timeoutMs = 120_000) {
    const reply = await this.#children[child]!.call(cmd, timeoutMs);
    if (reply.type === 'failed') throw new Error(`client process ${child}: ${reply.message}`);
    return reply as ReplyOf<T>;
  }

  #all<T extends AgentReply['type']>(cmd: AgentCommand, timeoutMs?: number): Promise<Array<ReplyOf<T>>> {
    return Promise.all(this.#children.map((_, i) => this.#call<T>(i, cmd, timeoutMs)));
  }

  async init(dataset: AgentDataset, config: CapacityConfig, runTag: string, startedAt: number): Promise<void> {
    await this.#all<'ready'>({ type: 'init', dataset, config, runTag, startedAt });
  }

  #slot(index: number): UserSlot {
    const address = Math.floor(index / SOCKETS_PER_ADDRESS);
    return {
      index,
      gateway: this.#gateways[index % this.#gateways.length]!,
      ...(address > 0 ? { localAddress: `127.0.0.${1 + address}` } : {}),
    };
  }

  /**
   * Runs exactly `count` users (dataset users 0..count-1): new ones start
   * log in one after the other, `perSecond` a second; the last added stop first.
   */
  async setUsers(count: number, perSecond: number): Promise<void> {
    const n = this.#children.length;
    if (count > this.#active) {
      const byChild = this.#children.map(() => [] as Array<UserSlot & { delayMs: number }>);
      for (let i = this.#active; i < count; i += 1)
        byChild[i % n]!.push({ ...this.#slot(i), delayMs: ((i - this.#active) / perSecond) * 1000 });
      await Promise.all(byChild.map((users, c) => this.#call<'added'>(c, { type: 'add', users })));
    } else if (count < this.#active) {
      const byChild = this.#children.map(() => [] as number[]);
      for (let i = count; i < this.#active; i += 1) byChild[i % n]!.push(i);
      await Promise.all(byChild.map((indexes, c) => this.#call<'removed'>(c, { type: 'remove', indexes })));
    }
    this.#active = count;
  }

  /** Every process's figures since the last call. */
  async window(): Promise<WindowReport[]> {
    const reports = await this.#all<'window'>({ type: 'window' }, 30_000);
    reports.forEach((r, i) => (this.#cpuMicros[i] = r.cpuMicros));
    return reports;
  }

  /** Every user stops acting; resolves once their actions are over. */
  async quiesce(): Promise<void> {
    await this.#all<'quiet'>({ type: 'quiesce' });
  }

  /** Each connected user's final check against the server; the sockets close. */
  async finish(): Promise<FinishTotals> {
    const reports: FinishReport[] = await this.#all<'finished'>({ type: 'finish' }, 300_000);
    reports.forEach((r, i) => (this.#cpuMicros[i] = r.cpuMicros));
    return {
      usersChecked: reports.reduce((s, r) => s + r.usersChecked, 0),
      missedAtEnd: reports.reduce((s, r) => s + r.missedAtEnd, 0),
      lost: reports.reduce((s, r) => s + r.lost, 0),
      lostSamples: reports.flatMap((r) => r.lostSamples).slice(0, 5),
      checkErrors: reports.reduce((s, r) => s + r.checkErrors, 0),
    };
  }

  /** Ends the client processes (they exit when their IPC channel closes). */
  close(): void {
    for (const child of this.#children) child.close();
  }
}
