import type { GroupRole } from '@im/protocol';
import { batchLoader, groupBy, type KvCache } from '@im/sdk';
import type { GroupModels } from './models.ts';

const NONE = '-';

/**
 * Answers "is user U a member of converse C, and with what role" for the
 * chat service's every send: two cached lookups (converse -> group, then
 * group+user -> role), each backed by an index. Writers and the event
 * handlers of every group node drop the entries a change touches.
 */
export class MembershipCache {
  readonly #cache: KvCache;
  readonly #models: GroupModels;
  readonly #ttl: number;

  /** Misses of one turn, one query per group: a connect storm checks thousands of members at once. */
  readonly #loadRole: (key: { groupId: string; userId: string }) => Promise<GroupRole | null>;

  constructor(cache: KvCache, models: GroupModels, ttlSeconds: number) {
    this.#cache = cache;
    this.#models = models;
    this.#ttl = ttlSeconds;
    this.#loadRole = batchLoader(
      async (keys) => {
        const roles = new Map<string, GroupRole>();
        await Promise.all(
          [...groupBy(keys, (k) => k.groupId)].map(async ([groupId, list]) => {
            const docs = await this.#models.members
              .find({ groupId, userId: { $in: list.map((k) => k.userId) } }, { userId: 1, role: 1 })
              .lean();
            for (const d of docs) roles.set(`${groupId}:${d.userId.toHexString()}`, d.role);
          }),
        );
        return keys.map((k) => roles.get(`${k.groupId}:${k.userId}`) ?? null);
      },
      { keyOf: (k) => `${k.groupId}:${k.userId}` },
    );
  }

  async converseMember(converseId: string, userId: string): Promise<{ groupId: string; role: GroupRole } | null> {
    const groupId = await this.groupOfConverse(converseId);
    if (!groupId) return null;
    const role = await this.role(groupId, userId);
    return role ? { groupId, role } : null;
  }

  /**
   * Several users of one converse at once (a sender and the users they
   * mention): the converse's group, and the role of each given user who is
   * a member. Cached roles are read per user; the misses of the turn are
   * fetched in one query (the batch loader groups them by group).
   */
  async converseMembers(
    converseId: string,
    userIds: readonly string[],
  ): Promise<{ groupId: string; roles: Record<string, GroupRole> } | null> {
    const groupId = await this.groupOfConverse(converseId);
    if (!groupId) return null;
    const unique = [...new Set(userIds)];
    const roles = await Promise.all(unique.map((userId) => this.role(groupId, userId)));
    const members: Record<string, GroupRole> = {};
    unique.forEach((userId, i) => {
      const role = roles[i];
      if (role) members[userId] = role;
    });
    return { groupId, roles: members };
  }

  async groupOfConverse(converseId: string): Promise<string | null> {
    const key = `cg:${converseId}`;
    const cached = await this.#cache.get(key);
    if (cached !== undefined) return cached === NONE ? null : cached;
    const group = await this.#models.groups.findOne({ 'panels.converseId': converseId }, { _id: 1 }).lean();
    const groupId = group?._id.toHexString() ?? null;
    await this.#cache.set(key, groupId ?? NONE, this.#ttl);
    return groupId;
  }

  async role(groupId: string, userId: string): Promise<GroupRole | null> {
    const key = `m:${groupId}:${userId}`;
    const cached = await this.#cache.get(key);
    if (cached !== undefined) return cached === NONE ? null : (cached as GroupRole);
    const role = await this.#loadRole({ groupId, userId });
    await this.#cache.set(key, role ?? NONE, this.#ttl);
    return role;
  }

  forgetMember(groupId: string, userId: string): Promise<void> {
    return this.#cache.del(`m:${groupId}:${userId}`);
  }

  forgetConverses(converseIds: string[]): Promise<void> {
    return this.#cache.del(...converseIds.map((id) => `cg:${id}`));
  }
}
