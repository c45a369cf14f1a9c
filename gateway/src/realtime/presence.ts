import type { Redis } from 'ioredis';

/**
 * Who is online, over every gateway node and every tab. `connected` and
 * `disconnected` say whether the user just came online or went offline
 * (their first socket anywhere appeared, or their last one went away).
 */
export interface PresenceStore {
  connected(userId: string): Promise<boolean>;
  disconnected(userId: string): Promise<boolean>;
  online(userIds: string[]): Promise<Set<string>>;
  /** A counted socket is in use (it connected, or its tab is active again): true when the user was away until now. */
  active(userId: string): Promise<boolean>;
  /** An active socket went idle or closed: true when the user now has no active socket anywhere. */
  idle(userId: string): Promise<boolean>;
  /** Of these users, the online ones with no active socket anywhere (every tab idle). */
  away(userIds: string[]): Promise<Set<string>>;
  /** Starts heartbeats and the sweeper; `onOffline` hears of users of dead nodes going offline. */
  start(onOffline: (userIds: string[]) => void): Promise<void>;
  stop(): Promise<void>;
}

/** Counts per user: the first one in and the last one out are what presence reports. */
class Tally {
  readonly #counts = new Map<string, number>();

  /** True when this is the user's first. */
  add(userId: string): boolean {
    const n = (this.#counts.get(userId) ?? 0) + 1;
    this.#counts.set(userId, n);
    return n === 1;
  }

  /** True when the user has none left. */
  remove(userId: string): boolean {
    const n = (this.#counts.get(userId) ?? 0) - 1;
    if (n > 0) {
      this.#counts.set(userId, n);
      return false;
    }
    this.#counts.delete(userId);
    return true;
  }

  has(userId: string): boolean {
    return this.#counts.has(userId);
  }
}

/** Single instance: sockets, and active ones, per user in this process. */
export class MemoryPresence implements PresenceStore {
  readonly #sockets = new Tally();
  readonly #active = new Tally();

  async connected(userId: string): Promise<boolean> {
    return this.#sockets.add(userId);
  }

  async disconnected(userId: string): Promise<boolean> {
    return this.#sockets.remove(userId);
  }

  async online(userIds: string[]): Promise<Set<string>> {
    return new Set(userIds.filter((id) => this.#sockets.has(id)));
  }

  async active(userId: string): Promise<boolean> {
    return this.#active.add(userId);
  }

  async idle(userId: string): Promise<boolean> {
    return this.#active.remove(userId);
  }

  async away(userIds: string[]): Promise<Set<string>> {
    return new Set(userIds.filter((id) => this.#sockets.has(id) && !this.#active.has(id)));
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}

const HEARTBEAT_MS = 5_000;
const NODE_TTL_SEC = 15;

// Socket counts per user live in one hash per node; a set per user names the
// nodes where they have sockets. Each script keeps the two in step atomically.
const CONNECT = `
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
if n == 1 then
  redis.call('SADD', KEYS[2], ARGV[2])
  if redis.call('SCARD', KEYS[2]) == 1 then return 1 end
end
return 0`;
const DISCONNECT = `
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('SREM', KEYS[2], ARGV[2])
  if redis.call('SCARD', KEYS[2]) == 0 then return 1 end
end
return 0`;
const FORGET_NODE = `
local offline = {}
for _, user in ipairs(redis.call('HKEYS', KEYS[1])) do
  local set = ARGV[2] .. user
  redis.call('SREM', set, ARGV[1])
  if redis.call('SCARD', set) == 0 then table.insert(offline, user) end
end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
return offline`;

type PresenceRedis = Redis & {
  presenceConnect(nodeKey: string, userKey: string, userId: string, nodeId: string): Promise<number>;
  presenceDisconnect(nodeKey: string, userKey: string, userId: string, nodeId: string): Promise<number>;
  presenceForgetNode(nodeKey: string, nodesKey: string, nodeId: string, userKeyPrefix: string): Promise<string[]>;
};

/**
 * Cluster presence in Redis. Each gateway node refreshes a heartbeat key;
 * every node sweeps: a node whose heartbeat expired (it died without
 * cleaning up) has its users removed, and those left with no socket anywhere
 * go offline. No ghosts survive a dead node for more than ~20 s.
 */
export class RedisPresence implements PresenceStore {
  readonly #redis: PresenceRedis;
  readonly #nodeId: string;
  readonly #prefix: string;
  #timer: NodeJS.Timeout | undefined;

  constructor(redis: Redis, nodeId: string) {
    this.#redis = redis as PresenceRedis;
    this.#nodeId = nodeId;
    /** The client's own keyPrefix applies to KEYS; ARGV-built keys need it spelled out. */
    this.#prefix = (redis.options.keyPrefix ?? '') + 'presence:';
    if (!('presenceConnect' in redis)) {
      redis.defineCommand('presenceConnect', { numberOfKeys: 2, lua: CONNECT });
      redis.defineCommand('presenceDisconnect', { numberOfKeys: 2, lua: DISCONNECT });
      redis.defineCommand('presenceForgetNode', { numberOfKeys: 2, lua: FORGET_NODE });
    }
  }

  #nodeKey = (nodeId: string) => `presence:node:${nodeId}`;
  #userKey = (userId: string) => `presence:user:${userId}`;
  // Active (not idle) sockets are counted the same way, under their own keys.
  #activeNodeKey = (nodeId: string) => `presence:activenode:${nodeId}`;
  #activeUserKey = (userId: string) => `presence:active:${userId}`;

  async connected(userId: string): Promise<boolean> {
    return (
      (await this.#redis.presenceConnect(this.#nodeKey(this.#nodeId), this.#userKey(userId), userId, this.#nodeId)) ===
      1
    );
  }

  async disconnected(userId: string): Promise<boolean> {
    return (
      (await this.#redis.presenceDisconnect(
        this.#nodeKey(this.#nodeId),
        this.#userKey(userId),
        userId,
        this.#nodeId,
      )) === 1
    );
  }

  async online(userIds: string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const pipeline = this.#redis.pipeline();
    for (const id of userIds) pipeline.scard(this.#userKey(id));
    const counts = (await pipeline.exec()) ?? [];
    return new Set(userIds.filter((_, i) => Number(counts[i]?.[1] ?? 0) > 0));
  }

  async active(userId: string): Promise<boolean> {
    const node = this.#activeNodeKey(this.#nodeId);
    return (await this.#redis.presenceConnect(node, this.#activeUserKey(userId), userId, this.#nodeId)) === 1;
  }

  async idle(userId: string): Promise<boolean> {
    const node = this.#activeNodeKey(this.#nodeId);
    return (await this.#redis.presenceDisconnect(node, this.#activeUserKey(userId), userId, this.#nodeId)) === 1;
  }

  async away(userIds: string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const pipeline = this.#redis.pipeline();
    for (const id of userIds) pipeline.scard(this.#userKey(id)).scard(this.#activeUserKey(id));
    const counts = (await pipeline.exec()) ?? [];
    const count = (i: number) => Number(counts[i]?.[1] ?? 0);
    return new Set(userIds.filter((_, i) => count(2 * i) > 0 && count(2 * i + 1) === 0));
  }

  async start(onOffline: (userIds: string[]) => void): Promise<void> {
    // A node restarting under the same id forgets its previous life first.
    const stale = await this.#forget(this.#nodeId);
    if (stale.length > 0) onOffline(stale);
    await this.#beat();
    this.#timer = setInterval(() => {
      void this.#beat()
        .then(() => this.#sweep(onOffline))
        .catch(() => undefined);
    }, HEARTBEAT_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#redis.del(`presence:alive:${this.#nodeId}`).catch(() => undefined);
  }

  async #beat(): Promise<void> {
    await this.#redis
      .multi()
      .set(`presence:alive:${this.#nodeId}`, '1', 'EX', NODE_TTL_SEC)
      .sadd('presence:nodes', this.#nodeId)
      .exec();
  }

  async #sweep(onOffline: (userIds: string[]) => void): Promise<void> {
    for (const node of await this.#redis.smembers('presence:nodes')) {
      if (node === this.#nodeId || (await this.#redis.exists(`presence:alive:${node}`))) continue;
      // One sweeper per dead node: whoever takes the lock.
      if ((await this.#redis.set(`presence:sweep:${node}`, this.#nodeId, 'EX', 30, 'NX')) !== 'OK') continue;
      const offline = await this.#forget(node);
      if (offline.length > 0) onOffline(offline);
    }
  }

  async #forget(nodeId: string): Promise<string[]> {
    // Its active sockets go with its sockets (the first call also unlists the node).
    await this.#redis.presenceForgetNode(
      this.#activeNodeKey(nodeId),
      'presence:nodes',
      nodeId,
      `${this.#prefix}active:`,
    );
    return this.#redis.presenceForgetNode(this.#nodeKey(nodeId), 'presence:nodes', nodeId, `${this.#prefix}user:`);
  }
}
