import type { Session } from '@im/protocol';
import type { KvCache } from '@im/sdk';
import { Types } from 'mongoose';
import type { SessionDoc, SessionModel, UserModel } from './models.ts';

/** How long "this session is live" is believed without reading MongoDB (revocations clear it at once). */
const LIVE_TTL_SEC = 60;
const USER_AGENT_MAX = 256;

/**
 * Login sessions: a MongoDB record per login, its live/revoked state cached
 * (in Redis when the cluster has one, so every user node agrees). Gateways
 * ask `isLive` once a minute per session at most; revocations reach them as
 * an event.
 */
export class Sessions {
  readonly #sessions: SessionModel;
  readonly #users: UserModel;
  readonly #cache: KvCache;
  readonly #ttlSeconds: number;

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
    return doc;
  }

  /**
   * Whether a token's session is still live (not revoked, not expired, its
   * user active). A cache miss reads MongoDB and records the session as seen.
   */
  async isLive(sessionId: string, userId: string): Promise<boolean> {
    const cached = await this.#cache.get(sessionId);
    if (cached !== undefined) return cached === userId;
    const now = new Date();
    const doc = await this.#sessions
      .findOneAndUpdate(
        { _id: sessionId, userId, revokedAt: { $exists: false }, expiresAt: { $gt: now } },
        { $set: { lastSeenAt: now } },
      )
      .lean<SessionDoc>();
    const live = doc !== null && (await this.#users.exists({ _id: userId, status: 'active' })) !== null;
    await this.#cache.set(sessionId, live ? userId : '-', LIVE_TTL_SEC);
    return live;
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
