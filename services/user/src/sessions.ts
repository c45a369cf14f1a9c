import type { Session } from '@im/protocol';
import type { KvCache } from '@im/sdk';
import { Types } from 'mongoose';
import type { SessionDoc, SessionModel, UserModel } from './models.ts';

/** How long an ended or unknown session is remembered as such without reading MongoDB. */
const DEAD_TTL_SEC = 60;
/**
 * How long a live session is believed without reading MongoDB. Every way a
 * session ends (logout, revocation, password change, deactivation, deletion)
 * overwrites its entry at once, so this bounds only the cache's size.
 */
const LIVE_TTL_SEC = 3600;
/** How often the sessions seen since the last write get their `lastSeenAt` (one update for all). */
const SEEN_FLUSH_MS = 30_000;
/** Sessions named in one `lastSeenAt` update. */
const SEEN_BATCH = 500;
/** Most live sessions a node without Redis loads into its cache at start (its cache holds 100,000). */
const WARM_MAX = 50_000;
const USER_AGENT_MAX = 256;

/** One token's claim: this session, of this user. */
export interface SessionClaim {
  sessionId: string;
  userId: string;
}

/**
 * Login sessions: a MongoDB record per login, its live/revoked state cached
 * (in Redis when the cluster has one, so every user node agrees). A session
 * is cached live by the node that opens it, so a gateway's first check of a
 * fresh token reads no database; the checks that do miss come in batches
 * (one read for many sessions, never a write): a reconnect storm after a
 * gateway restart costs a few queries, not one per socket. When a session
 * was last seen is written in batches, off the check's path.
 */
export class Sessions {
  readonly #sessions: SessionModel;
  readonly #users: UserModel;
  readonly #cache: KvCache;
  readonly #ttlSeconds: number;
  /** Sessions seen since the last `lastSeenAt` write. */
  #seen = new Set<string>();
  #flushing: Promise<void> = Promise.resolve();

  constructor(sessions: SessionModel, users: UserModel, cache: KvCache, ttlSeconds: number) {
    this.#sessions = sessions;
    this.#users = users;
    this.#cache = cache;
    this.#ttlSeconds = ttlSeconds;
  }

  async open(
    userId: Types.ObjectId,
    ip: string | undefined,
    userAgent: string | undefined,
    ttlSeconds = this.#ttlSeconds,
  ): Promise<SessionDoc> {
    const now = new Date();
    const doc: SessionDoc = {
      _id: new Types.ObjectId(),
      userId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
      ip: ip ?? 'unknown',
      userAgent: (userAgent ?? '').slice(0, USER_AGENT_MAX),
    };
    await this.#sessions.collection.insertOne(doc);
    // Known here from the start: its first check on any gateway reads no database.
    await this.#cache.set(doc._id.toHexString(), userId.toHexString(), Math.min(ttlSeconds, LIVE_TTL_SEC));
    return doc;
  }

  /**
   * Loads the live sessions of active users (at most WARM_MAX) into the
   * cache, one scan at start: on a node whose cache is its own memory, a
   * restart would otherwise meet its reconnect storm with an empty cache. An
   * entry a revocation wrote meanwhile is kept (`add` never overwrites).
   */
  async warm(): Promise<number> {
    const now = new Date();
    const inactive = new Set(
      (await this.#users.find({ status: { $ne: 'active' } }, { _id: 1 }).lean<Array<{ _id: Types.ObjectId }>>()).map(
        (u) => u._id.toHexString(),
      ),
    );
    const live = this.#sessions
      .find({ revokedAt: { $exists: false }, expiresAt: { $gt: now } }, { _id: 1, userId: 1, expiresAt: 1 })
      .lean<Pick<SessionDoc, '_id' | 'userId' | 'expiresAt'>>()
      .cursor({ batchSize: 1000 });
    let loaded = 0;
    for await (const d of live) {
      if (loaded >= WARM_MAX) break;
      const userId = d.userId.toHexString();
      if (inactive.has(userId)) continue;
      const life = Math.floor((d.expiresAt.getTime() - now.getTime()) / 1000);
      if (await this.#cache.add(d._id.toHexString(), userId, Math.max(1, Math.min(life, LIVE_TTL_SEC)))) loaded += 1;
    }
    await live.close();
    return loaded;
  }

  /** Whether one token's session is still live (see `liveOf`). */
  async isLive(sessionId: string, userId: string): Promise<boolean> {
    const [live] = await this.liveOf([{ sessionId, userId }]);
    return live === true;
  }

  /**
   * For each claim, in order: whether its session is still live (not revoked,
   * not expired, its user active). Answered from the cache where it knows;
   * the rest with one read of the sessions and one of their users.
   */
  async liveOf(claims: readonly SessionClaim[]): Promise<boolean[]> {
    const cached = await this.#cache.getMany(claims.map((c) => c.sessionId));
    const missing = [...new Set(claims.filter((_, i) => cached[i] === undefined).map((c) => c.sessionId))];
    const found = missing.length > 0 ? await this.#read(missing) : new Map<string, string>();
    const live = claims.map((c, i) => (cached[i] ?? found.get(c.sessionId)) === c.userId);
    claims.forEach((c, i) => {
      if (live[i]) this.#seen.add(c.sessionId);
    });
    return live;
  }

  /** The owners of those sessions that are live, read from MongoDB and cached (the others cached as ended). */
  async #read(sessionIds: string[]): Promise<Map<string, string>> {
    const now = new Date();
    const docs = await this.#sessions
      .find(
        { _id: { $in: sessionIds }, revokedAt: { $exists: false }, expiresAt: { $gt: now } },
        { _id: 1, userId: 1, expiresAt: 1 },
      )
      .lean<Array<Pick<SessionDoc, '_id' | 'userId' | 'expiresAt'>>>();
    const userIds = [...new Set(docs.map((d) => d.userId.toHexString()))];
    const active = new Set(
      userIds.length === 0
        ? []
        : (
            await this.#users
              .find({ _id: { $in: userIds }, status: 'active' }, { _id: 1 })
              .lean<Array<{ _id: Types.ObjectId }>>()
          ).map((u) => u._id.toHexString()),
    );
    const owners = new Map<string, string>();
    const lives = new Map<string, number>();
    for (const d of docs) {
      const userId = d.userId.toHexString();
      if (!active.has(userId)) continue;
      owners.set(d._id.toHexString(), userId);
      lives.set(d._id.toHexString(), Math.floor((d.expiresAt.getTime() - now.getTime()) / 1000));
    }
    await Promise.all(
      sessionIds.map((id) => {
        const owner = owners.get(id);
        if (owner === undefined) return this.#cache.set(id, '-', DEAD_TTL_SEC);
        return this.#cache.set(id, owner, Math.max(1, Math.min(lives.get(id)!, LIVE_TTL_SEC)));
      }),
    );
    return owners;
  }

  /**
   * Writes `lastSeenAt` for the sessions seen since the last write (one
   * update per SEEN_BATCH sessions). Runs every SEEN_FLUSH_MS (`keepSeen`)
   * and once more when the node stops.
   */
  flushSeen(): Promise<void> {
    const ids = [...this.#seen];
    this.#seen = new Set();
    const flush = this.#flushing.then(async () => {
      const at = new Date();
      for (let i = 0; i < ids.length; i += SEEN_BATCH) {
        const batch = ids.slice(i, i + SEEN_BATCH).map((id) => new Types.ObjectId(id));
        await this.#sessions.updateMany({ _id: { $in: batch } }, { $set: { lastSeenAt: at } });
      }
    });
    // The next flush waits for this one, failed or not: one failed write must not stop every later one.
    this.#flushing = flush.catch(() => undefined);
    return flush;
  }

  /** Starts the periodic `lastSeenAt` write; the returned function stops it and writes what is left. */
  keepSeen(onError: (err: unknown) => void): () => Promise<void> {
    const timer = setInterval(() => void this.flushSeen().catch(onError), SEEN_FLUSH_MS);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await this.flushSeen().catch(onError);
    };
  }

  /** On a revocation heard from another node: its cache (memory on a node without Redis) learns it too. */
  async forget(sessionIds: readonly string[]): Promise<void> {
    await Promise.all(sessionIds.map((id) => this.#cache.set(id, '-', this.#ttlSeconds)));
  }

  /**
   * When each user last used one of their sessions (sessions record it at
   * most once a minute); users with no session on record are left out.
   */
  async lastSeen(userIds: Types.ObjectId[]): Promise<Map<string, Date>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.#sessions.aggregate<{ _id: Types.ObjectId; at: Date }>([
      { $match: { userId: { $in: userIds } } },
      { $group: { _id: '$userId', at: { $max: '$lastSeenAt' } } },
    ]);
    return new Map(rows.map((r) => [r._id.toHexString(), r.at]));
  }

  /** The user's live sessions, newest first; `current` marks the asking token's. */
  async list(userId: string, currentId: string | undefined): Promise<Session[]> {
    const docs = await this.#sessions
      .find({ userId, revokedAt: { $exists: false }, expiresAt: { $gt: new Date() } })
      .sort({ createdAt: -1 })
      .limit(200)
      .lean<SessionDoc[]>();
    return docs.map((d) => ({
      id: d._id.toHexString(),
      createdAt: d.createdAt.toISOString(),
      lastSeenAt: d.lastSeenAt.toISOString(),
      ip: d.ip,
      userAgent: d.userAgent,
      current: d._id.toHexString() === currentId,
    }));
  }

  /**
   * Revokes the user's live sessions: one (`only`), all but one (`except`),
   * or all. Answers the ids revoked (for the event that tells the gateways).
   */
  async revoke(userId: string, which: { only?: string; except?: string } = {}): Promise<string[]> {
    const filter = {
      userId: new Types.ObjectId(userId),
      revokedAt: { $exists: false },
      ...(which.only ? { _id: new Types.ObjectId(which.only) } : {}),
      ...(which.except ? { _id: { $ne: new Types.ObjectId(which.except) } } : {}),
    };
    const ids = (await this.#sessions.find(filter, { _id: 1 }).lean<Array<Pick<SessionDoc, '_id'>>>()).map((d) =>
      d._id.toHexString(),
    );
    if (ids.length === 0) return [];
    await this.#sessions.updateMany({ ...filter, _id: { $in: ids } }, { $set: { revokedAt: new Date() } });
    // Kept as long as any of their tokens could still be presented.
    await Promise.all(ids.map((id) => this.#cache.set(id, '-', this.#ttlSeconds)));
    return ids;
  }
}
