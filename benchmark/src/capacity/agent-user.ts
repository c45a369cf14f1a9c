// One simulated user, as a person with the web client open: logs in, opens
// the socket and syncs, loads the sidebar (groups, unread counts), opens a
// converse, then after each think time does one thing of the configured mix.
// Every live message tells it the delivery time (the sender's stamp) and
// the converse's seq, so gaps on a connected socket show.
import type { DmConverse, FileInfo, Group, Message, PublicUser, SyncResult, UnreadEntry } from '@im/protocol';
import { FormData } from 'undici';
import { connectSocket, type ClientSocket } from '../lib/client-socket.ts';
import { now } from '../swarm/protocol.ts';
import { emitAck, RequestFailed, type HttpClient } from './agent-client.ts';
import type { AgentDataset, UserSlot } from './agent-protocol.ts';
import { Recorder } from './agent-recorder.ts';
import { ConverseSeqs } from './agent-seqs.ts';
import { fileBytes, messageText, pickOne, randomInt, sentAtOf, uniform } from './agent-text.ts';
import type { ActionKind, CapacityConfig } from './config.ts';

/** What the users of one client process share. */
export interface UserEnv {
  http: HttpClient;
  recorder: Recorder;
  config: CapacityConfig;
  dataset: AgentDataset;
  /** Makes clientMsgIds unique to the run. */
  runTag: string;
  /** Epoch ms the load began: stamps older than this are not this run's sends. */
  startedAt: number;
  pickAction(): ActionKind;
  /** Dataset groups (indexes) a user is in. */
  groupsOf(userIndex: number): number[];
  /** The dataset group a converse is a panel of (undefined for DMs). */
  groupOfConverse(converseId: string): number | undefined;
}

interface ConverseView {
  seqs: ConverseSeqs;
  /** Ids of recent messages, newest last: what reactions and replies pick from. */
  recent: string[];
  /** Lowest seq a history read returned (`readOlder` pages below it). */
  oldestLoaded: number | undefined;
}

const RECENT = 30;

const OWN = 20;

const remember = (view: ConverseView, id: string) => {
  view.recent.push(id);
  if (view.recent.length > RECENT) view.recent.shift();
};

export interface FinalCheck {
  checked: boolean;
  missedAtEnd: number;
  lost: number;
  lostSamples: string[];
  error: boolean;
}

export class SimUser {
  readonly slot: UserSlot;
  readonly username: string;
  readonly #env: UserEnv;
  #token: string | undefined;
  #userId: string | undefined;
  #socket: ClientSocket | undefined;
  /** The user keeps acting (and reconnecting) while true. */
  #active = true;
  /** The socket is being closed on purpose: its disconnect is no error. */
  #closing = false;
  /** From a (re)connect to its sync answer, and while offline: gaps are not judged then. */
  #syncing = true;
  /** Baselines (last seq per converse) are known. */
  #loaded = false;
  /** Live seqs that arrived before the baselines, per converse. */
  readonly #early = new Map<string, number[]>();
  readonly converses = new Map<string, ConverseView>();
  #open: string | undefined;
  readonly #own: Array<{ id: string; converseId: string }> = [];
  #serial = 0;
  readonly #wakers = new Set<() => void>();
  #loop: Promise<void> | undefined;
  #recovering: Promise<void> | undefined;
  /** Inside an action (or its initial load). */
  busy = false;

  constructor(slot: UserSlot, env: UserEnv) {
    this.slot = slot;
    this.#env = env;
    this.username = `${env.dataset.usernamePrefix}${slot.index}`;
  }

  get connected(): boolean {
    return this.#socket?.connected ?? false;
  }

  /** Connected, synced and with baselines: its gaps count. */
  get judged(): boolean {
    return this.connected && !this.#syncing && this.#loaded;
  }

  start(delayMs: number): void {
    this.#loop = this.#run(delayMs).catch((err: unknown) =>
      this.#env.recorder.error('internal', err instanceof Error ? (err.stack ?? err.message) : String(err), false),
    );
  }

  /** Stops acting; resolves once the current action is over (or after a while). */
  async halt(): Promise<void> {
    this.#active = false;
    for (const wake of this.#wakers) wake();
    await Promise.race([
      Promise.all([this.#loop, this.#recovering]),
      new Promise((r) => setTimeout(r, this.#env.config.requestTimeoutSeconds * 1000 + 5_000).unref()),
    ]);
  }

  /** Closes the socket on purpose. */
  close(): void {
    this.#closing = true;
    this.#socket?.disconnect();
  }

  /** Counts gaps open past the grace period (when connected and synced). */
  countOverdue(at: number, graceMs: number): number {
    if (!this.judged) return 0;
    let n = 0;
    for (const view of this.converses.values()) n += view.seqs.countOverdue(at, graceMs);
    return n;
  }

  // ---- lifecycle ----

  async #run(delayMs: number): Promise<void> {
    const { config, recorder } = this.#env;
    await this.#sleep(delayMs);
    while (this.#active && !this.#token) {
      try {
        await this.#login();
      } catch (err) {
        if (!(err instanceof RequestFailed)) throw err;
        await this.#sleep(randomInt(3_000, 8_000));
      }
    }
    while (this.#active && !this.judged) {
      try {
        this.busy = true;
        await this.#connect();
      } catch (err) {
        if (!(err instanceof RequestFailed)) throw err;
        await this.#sleep(randomInt(2_000, 5_000));
      } finally {
        this.busy = false;
      }
    }
    while (this.#active) {
      await this.#sleep(uniform(config.thinkSeconds) * 1000);
      if (!this.#active) break;
      // Offline (a cut being repaired): nothing to do but wait.
      if (!this.judged) continue;
      const action = this.#env.pickAction();
      recorder.action(action);
      this.busy = true;
      try {
        await this.#act(action);
      } catch (err) {
        // Failed requests are recorded where they fail; anything else is a bug of the simulation.
        if (!(err instanceof RequestFailed)) throw err;
      } finally {
        this.busy = false;
      }
    }
  }

  #sleep(ms: number): Promise<void> {
    if (!this.#active || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#wakers.add(wake);
    });
  }

  #call<T>(kind: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, json?: unknown, recorder?: Recorder) {
    return this.#env.http.call<T>(kind, this.slot.gateway, method, path, {
      ...(this.#token ? { token: this.#token } : {}),
      ...(json !== undefined ? { json } : {}),
      ...(recorder ? { recorder } : {}),
    });
  }

  async #login(): Promise<void> {
    const auth = await this.#call<{ token: string; user: PublicUser }>('login', 'POST', '/api/auth/login', {
      username: this.username,
      password: this.#env.dataset.password,
    });
    this.#token = auth.token;
    this.#userId = auth.user.id;
  }

  /** Opens the socket, syncs from the last seqs, and the first time loads the sidebar and a converse. */
  async #connect(): Promise<void> {
    const { recorder, config } = this.#env;
    const timeoutMs = config.requestTimeoutSeconds * 1000;
    this.#syncing = true;
    for (const view of this.converses.values()) view.seqs.restartClocks(now());
    const old = this.#socket;
    old?.removeAllListeners();
    const t0 = performance.now();
    let socket: ClientSocket;
    try {
      socket = await connectSocket(this.slot.gateway, this.#token!, {
        timeoutMs,
        ...(this.slot.localAddress ? { localAddress: this.slot.localAddress } : {}),
        beforeConnect: (s) => this.#listen(s),
      });
    } catch (err) {
      const message = `connect: ${(err as Error).message}`;
      recorder.error('connect', message, false);
      throw new RequestFailed(message);
    }
    recorder.request('connect', performance.now() - t0);
    this.#socket = socket;
    this.#closing = false;
    const first = !this.#loaded;
    try {
      const cursors = Object.fromEntries(
        [...this.converses].slice(0, 1000).map(([id, view]) => [id, view.seqs.contiguous]),
      );
      const { data } = await emitAck<SyncResult>(recorder, 'sync', socket, 'sync', { cursors }, timeoutMs);
      this.#applySync(data);
      if (first) {
        await this.#refresh();
        this.#loaded = true;
      }
      this.#syncing = false;
    } catch (err) {
      this.#closing = true;
      socket.disconnect();
      throw err;
    }
    // Like the client after its first load: a converse is open.
    if (first) {
      try {
        await this.#openConverse();
      } catch (err) {
        if (!(err instanceof RequestFailed)) throw err;
      }
    }
  }

  #listen(socket: ClientSocket): void {
    socket.on('message:new', (m) => this.#onMessage(m));
    socket.on('dm:opened', (dm) => {
      if (this.#loaded && !this.converses.has(dm.id)) this.#track(dm.id, 0);
    });
    socket.on('disconnect', (reason) => {
      if (socket !== this.#socket || this.#closing) return;
      this.#env.recorder.error('disconnect', `unexpected disconnect: ${reason}`, false);
      this.#syncing = true;
      this.#recovering ??= this.#recover().finally(() => (this.#recovering = undefined));
    });
  }

  /** After an unexpected cut: reconnect like a client does, after a short pause, until it works. */
  async #recover(): Promise<void> {
    while (this.#active && !this.connected) {
      await this.#sleep(randomInt(1_000, 3_000));
      if (!this.#active) return;
      try {
        await this.#connect();
      } catch (err) {
        if (!(err instanceof RequestFailed)) throw err;
      }
    }
  }

  #track(converseId: string, baseline: number): ConverseView {
    const view: ConverseView = { seqs: new ConverseSeqs(baseline), recent: [], oldestLoaded: undefined };
    this.converses.set(converseId, view);
    return view;
  }

  #onMessage(m: Message): void {
    const at = now();
    if (m.authorId !== this.#userId) {
      const sent = sentAtOf(m.content);
      if (sent !== undefined && sent >= this.#env.startedAt) this.#env.recorder.broadcast(at - sent);
    }
    let view = this.converses.get(m.converseId);
    if (!view) {
      if (!this.#loaded) {
        const early = this.#early.get(m.converseId) ?? [];
        early.push(m.seq);
        this.#early.set(m.converseId, early);
        return;
      }
      // A converse that appeared during the run (a DM someone opened): it starts here.
      view = this.#track(m.converseId, m.seq - 1);
    }
    view.seqs.see(m.seq, at);
    remember(view, m.id);
  }

  #applySync(result: SyncResult): void {
    const at = now();
    for (const [converseId, missed] of Object.entries(result.converses)) {
      const view = this.converses.get(converseId);
      if (!view) continue;
      if (missed.tooMany) view.seqs.reset(missed.lastSeq);
      else
        for (const m of missed.messages) {
          view.seqs.see(m.seq, at);
          remember(view, m.id);
        }
    }
  }

  // ---- actions ----

  async #act(action: ActionKind): Promise<void> {
    switch (action) {
      case 'openConverse':
        return this.#openConverse();
      case 'readOlder':
        return this.#readOlder();
      case 'send':
        return this.#send();
      case 'react':
        return this.#react();
      case 'edit':
        return this.#edit();
      case 'upload':
        return this.#upload();
      case 'startDm':
        return this.#startDm();
      case 'refresh':
        return this.#refresh();
      case 'reconnect':
        return this.#reconnect();
      case 'idle':
        return;
    }
  }

  /** The sidebar: groups, then unread counts (which give every converse's last seq). */
  async #refresh(): Promise<void> {
    await this.#call<Group[]>('groups', 'GET', '/api/groups');
    const unread = await this.#call<UnreadEntry[]>('unread', 'GET', '/api/unread');
    const at = now();
    for (const entry of unread) {
      const view = this.converses.get(entry.converseId);
      if (!view) {
        const fresh = this.#track(entry.converseId, entry.lastSeq);
        for (const seq of this.#early.get(entry.converseId) ?? []) fresh.seqs.see(seq, at);
      } else if (this.judged) {
        // Whatever the server has stored must arrive live (the grace period covers events under way).
        view.seqs.expect(entry.lastSeq, at);
      }
    }
    this.#early.clear();
  }

  async #openConverse(converseId = pickOne([...this.converses.keys()])): Promise<void> {
    if (!converseId) return;
    const page = await this.#call<Message[]>(
      'history',
      'GET',
      `/api/converses/${converseId}/messages?limit=${this.#env.config.historyPageSize}`,
    );
    const view = this.converses.get(converseId) ?? this.#track(converseId, page.at(-1)?.seq ?? 0);
    for (const m of page) remember(view, m.id);
    view.oldestLoaded = page[0]?.seq;
    this.#open = converseId;
    const last = page.at(-1)?.seq;
    if (last) await this.#call('ack', 'POST', `/api/converses/${converseId}/ack`, { seq: last });
  }

  async #readOlder(): Promise<void> {
    const view = this.#open ? this.converses.get(this.#open) : undefined;
    if (!view || view.oldestLoaded === undefined || view.oldestLoaded <= 1) return this.#openConverse();
    const page = await this.#call<Message[]>(
      'historyOlder',
      'GET',
      `/api/converses/${this.#open}/messages?before=${view.oldestLoaded}&limit=${this.#env.config.historyPageSize}`,
    );
    view.oldestLoaded = page[0]?.seq ?? 1;
  }

  async #send(): Promise<void> {
    if (!this.#open) await this.#openConverse();
    const converseId = this.#open;
    if (!converseId || !this.connected) return;
    const { typing, requestTimeoutSeconds } = this.#env.config;
    if (Math.random() < typing.probability) {
      await emitAck(
        this.#env.recorder,
        'typing',
        this.#socket!,
        'typing',
        { converseId },
        requestTimeoutSeconds * 1000,
      );
      await this.#sleep(uniform(typing.seconds) * 1000);
      if (!this.connected) return;
    }
    await this.#sendInto(converseId, 'send');
  }

  async #sendInto(converseId: string, kind: string, attachments?: string[]): Promise<void> {
    const { config, dataset, recorder, runTag } = this.#env;
    const view = this.converses.get(converseId);
    let mention: string | undefined;
    const group = this.#env.groupOfConverse(converseId);
    if (group !== undefined && Math.random() < config.message.mentionProbability) {
      const other = pickOne(dataset.groups[group]!.memberIndexes);
      if (other !== this.slot.index) mention = `${dataset.usernamePrefix}${other}`;
    }
    const replyTo =
      view && view.recent.length > 0 && Math.random() < config.message.replyProbability
        ? pickOne(view.recent)
        : undefined;
    const body = {
      converseId,
      content: messageText(config.message.words, mention),
      clientMsgId: `${runTag}.${this.slot.index}.${this.#serial++}`,
      ...(replyTo ? { replyTo } : {}),
      ...(attachments ? { attachments } : {}),
    };
    const { data, ms } = await emitAck<Message>(
      recorder,
      kind,
      this.#socket!,
      'message:send',
      body,
      config.requestTimeoutSeconds * 1000,
    );
    recorder.store(ms);
    this.#own.push({ id: data.id, converseId });
    if (this.#own.length > OWN) this.#own.shift();
  }

  async #react(): Promise<void> {
    const view = this.#open ? this.converses.get(this.#open) : undefined;
    if (!view || view.recent.length === 0) return this.#openConverse();
    const emoji = encodeURIComponent(pickOne(this.#env.config.reactions));
    await this.#call('react', 'PUT', `/api/messages/${pickOne(view.recent)}/reactions/${emoji}`);
  }

  async #edit(): Promise<void> {
    const mine = this.#own.at(-randomInt(1, Math.min(5, this.#own.length || 1)));
    if (!mine) return this.#send();
    await this.#call('edit', 'PATCH', `/api/messages/${mine.id}`, {
      content: messageText(this.#env.config.message.words),
    });
  }

  async #upload(): Promise<void> {
    const { upload } = this.#env.config;
    const form = new FormData();
    form.append(
      'file',
      new Blob([fileBytes(randomInt(upload.bytes.min, upload.bytes.max))], { type: 'text/plain' }),
      `notes-${this.slot.index}-${this.#serial}.txt`,
    );
    const file = await this.#env.http.call<FileInfo>('upload', this.slot.gateway, 'POST', '/api/files', {
      token: this.#token!,
      form,
    });
    if (!this.#open) await this.#openConverse();
    if (this.#open && this.connected) await this.#sendInto(this.#open, 'sendFile', [file.id]);
  }

  /** Finds a member of one of its groups by name, opens (or reopens) the DM and writes. */
  async #startDm(): Promise<void> {
    const { dataset } = this.#env;
    const groups = this.#env.groupsOf(this.slot.index);
    if (groups.length === 0) return;
    const members = dataset.groups[pickOne(groups)]!.memberIndexes;
    const other = pickOne(members);
    if (other === this.slot.index) return;
    const username = `${dataset.usernamePrefix}${other}`;
    const found = await this.#call<PublicUser[]>('userSearch', 'GET', `/api/users?q=${username}&limit=10`);
    const user = found.find((u) => u.username === username);
    if (!user) {
      this.#env.recorder.error('userSearch', `no user ${username} in the search answer`, true);
      return;
    }
    const dm = await this.#call<DmConverse>('dm', 'POST', '/api/dms', { userId: user.id });
    await this.#openConverse(dm.id);
    if (this.connected) await this.#sendInto(dm.id, 'send');
  }

  /** Goes offline for a while, then reconnects and syncs from its last seqs. */
  async #reconnect(): Promise<void> {
    if (!this.connected) return;
    this.#syncing = true;
    this.close();
    await this.#sleep(uniform(this.#env.config.reconnect.offlineSeconds) * 1000);
    try {
      await this.#connect();
    } catch (err) {
      if (!(err instanceof RequestFailed)) throw err;
      this.#recovering ??= this.#recover().finally(() => (this.#recovering = undefined));
    }
  }

  // ---- the end ----

  /**
   * Compares every converse with the server's last seq: what never arrived
   * live is a missed message; then syncs (paging history where the sync says
   * too many): what even that cannot fill is lost. Closes the socket.
   */
  async finalCheck(): Promise<FinalCheck> {
    const out: FinalCheck = { checked: false, missedAtEnd: 0, lost: 0, lostSamples: [], error: false };
    if (!this.judged) {
      this.close();
      return out;
    }
    const scratch = new Recorder();
    const timeoutMs = this.#env.config.requestTimeoutSeconds * 1000;
    try {
      const unread = await this.#call<UnreadEntry[]>('final', 'GET', '/api/unread', undefined, scratch);
      const at = now();
      for (const entry of unread) this.converses.get(entry.converseId)?.seqs.expect(entry.lastSeq, at);
      for (const view of this.converses.values()) out.missedAtEnd += view.seqs.countAllOpen();
      const gaps = [...this.converses].filter(([, view]) => view.seqs.missingCount > 0);
      if (gaps.length > 0) {
        const cursors = Object.fromEntries(gaps.map(([id, view]) => [id, view.seqs.contiguous]));
        const { data } = await emitAck<SyncResult>(scratch, 'final', this.#socket!, 'sync', { cursors }, timeoutMs);
        for (const [converseId, missed] of Object.entries(data.converses)) {
          const view = this.converses.get(converseId)!;
          if (missed.tooMany) await this.#pageUp(converseId, view, scratch);
          else for (const m of missed.messages) view.seqs.see(m.seq, at);
        }
      }
      for (const [converseId, view] of this.converses) {
        out.lost += view.seqs.missingCount;
        if (view.seqs.missingCount > 0 && out.lostSamples.length < 3)
          out.lostSamples.push(`${this.username}: ${view.seqs.missingCount} missing in ${converseId}`);
      }
      out.checked = true;
    } catch (err) {
      out.error = true;
      out.lostSamples.push(`${this.username}: final check failed: ${(err as Error).message}`);
    }
    this.close();
    return out;
  }

  async #pageUp(converseId: string, view: ConverseView, scratch: Recorder): Promise<void> {
    let after = view.seqs.contiguous;
    for (let page = 0; page < 100 && after < view.seqs.highest; page += 1) {
      const messages = await this.#call<Message[]>(
        'final',
        'GET',
        `/api/converses/${converseId}/messages?after=${after}&limit=100`,
        undefined,
        scratch,
      );
      if (messages.length === 0) break;
      for (const m of messages) view.seqs.see(m.seq, now());
      after = messages.at(-1)!.seq;
    }
  }
}
