import type { Ack, Message, SyncResult } from '@im/protocol';
import { connectClient, type ClientSocket } from '../realtime/client.ts';

export interface User {
  token: string;
  id: string;
  username: string;
}

/** One HTTP call; resolves with the status and the parsed body, or rejects on a network failure. */
export async function http<T>(
  base: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  timeoutMs = 15_000,
): Promise<{ status: number; body: T }> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export async function ok<T>(base: string, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const res = await http<T>(base, method, path, token, body);
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export interface SendOutcome {
  message: Message;
  /** Tries it took (1 = first try acknowledged). */
  tries: number;
  /** From the first try to the acknowledgement. */
  ms: number;
}

/**
 * Sends like the app does when the network or a node fails: the same
 * clientMsgId again until the server acknowledges it, moving to the next
 * gateway after a failure (as a load balancer would), within `deadlineMs`.
 */
export async function sendUntilAcknowledged(
  gateways: string[],
  token: string,
  converseId: string,
  content: string,
  clientMsgId: string,
  deadlineMs = 120_000,
): Promise<SendOutcome> {
  const started = Date.now();
  let last = '';
  for (let tries = 1; Date.now() - started < deadlineMs; tries += 1) {
    const base = gateways[(tries - 1) % gateways.length]!;
    try {
      const res = await http<Message>(base, 'POST', `/api/converses/${converseId}/messages`, token, {
        content,
        clientMsgId,
      });
      if (res.status === 201 || res.status === 200) return { message: res.body, tries, ms: Date.now() - started };
      // Refusals for the request itself would repeat forever: only unavailability is retried.
      if (res.status < 500 && res.status !== 429 && res.status !== 408) {
        throw new Error(`send refused: ${res.status} ${JSON.stringify(res.body)}`);
      }
      last = `${res.status} ${JSON.stringify(res.body)}`;
    } catch (err) {
      if ((err as Error).message.startsWith('send refused')) throw err;
      last = (err as Error).message;
    }
    // Back off a little, as the app does, so a dead node is not hammered.
    await new Promise((r) => setTimeout(r, Math.min(250 * tries, 2000)));
  }
  throw new Error(`${clientMsgId} not acknowledged within ${deadlineMs} ms (last: ${last})`);
}

/** Every message of a converse in seq order, read page by page. */
export async function history(base: string, token: string, converseId: string): Promise<Message[]> {
  const all: Message[] = [];
  let after = 0;
  for (;;) {
    const page = await ok<Message[]>(
      base,
      'GET',
      `/api/converses/${converseId}/messages?after=${after}&limit=100`,
      token,
    );
    all.push(...page);
    if (page.length < 100) return all;
    after = page.at(-1)!.seq;
  }
}

/**
 * A member's app: a socket on one gateway that records the messages it is
 * shown (by seq, so a message shown twice is seen), and that moves to
 * another gateway and syncs when its gateway stops answering.
 */
export class MemberApp {
  readonly shown = new Map<number, Message>();
  /** Seqs pushed to the app a second time as `message:new` (a sync may overlap a push: the app merges by id). */
  readonly repeats: number[] = [];
  readonly #pushed = new Set<number>();
  readonly #tombstones = new Set<number>();
  /** When each seq was first shown (ms since the epoch). */
  readonly shownAt = new Map<number, number>();
  socket!: ClientSocket;
  base!: string;
  /** Times its gateway told it to sync (its link to the cluster came back). */
  resyncs = 0;

  readonly user: User;
  readonly converseId: string;

  constructor(user: User, converseId: string) {
    this.user = user;
    this.converseId = converseId;
  }

  async connect(base: string): Promise<void> {
    this.base = base;
    this.socket = await connectClient(base, this.user.token);
    this.socket.on('message:new', (m) => {
      if (m.converseId !== this.converseId) return;
      if (this.#pushed.has(m.seq)) this.repeats.push(m.seq);
      this.#pushed.add(m.seq);
      this.show(m);
    });
    this.socket.on('sync:required', () => {
      this.resyncs += 1;
      void this.catchUp().catch(() => undefined);
    });
    await this.catchUp();
  }

  show(m: Message): void {
    if (m.converseId !== this.converseId) return;
    if (this.shown.has(m.seq)) return;
    this.shown.set(m.seq, m);
    this.shownAt.set(m.seq, Date.now());
  }

  /** The last seq up to which it holds every message or knows its tombstone: the sync cursor. */
  get lastSeq(): number {
    let seq = 0;
    while (this.shown.has(seq + 1) || this.#tombstones.has(seq + 1)) seq += 1;
    return seq;
  }

  /** Asks for what it missed, as the app does after a reconnect. */
  async catchUp(timeoutMs = 30_000): Promise<void> {
    const res = (await this.socket
      .timeout(timeoutMs)
      .emitWithAck('sync', { cursors: { [this.converseId]: this.lastSeq } })) as Ack<SyncResult>;
    if (!res.ok) throw new Error(`sync refused: ${res.error.code}`);
    const missed = res.data.converses[this.converseId];
    if (missed?.tooMany) throw new Error('more than 200 missed: the test sends fewer');
    for (const m of missed?.messages ?? []) {
      // A tombstone holds its seq (the cursor moves past it) but shows nothing.
      if (m.deleted) this.#tombstones.add(m.seq);
      else this.show(m);
    }
  }

  /**
   * What the app does when the user acts: a sync answered within
   * `timeoutMs`, or else give up on this gateway and move to `fallback`.
   */
  async checkIn(fallback: string, timeoutMs = 5_000): Promise<'answered' | 'moved'> {
    try {
      await this.catchUp(timeoutMs);
      return 'answered';
    } catch {
      this.socket.removeAllListeners();
      this.socket.disconnect();
      await this.connect(fallback);
      return 'moved';
    }
  }

  /** Leaves its gateway and connects to `base` (a load balancer spreading new connections). */
  async reconnect(base: string): Promise<void> {
    this.socket.removeAllListeners();
    this.socket.disconnect();
    await this.connect(base);
  }

  close(): void {
    this.socket?.disconnect();
  }
}
