import type { ConverseMembership, GroupRole, PostingRole } from '@im/protocol';
import { batchLoader, groupBy, type KvCache } from '@im/sdk';
import type { GroupModels, MemberDoc } from './models.ts';

const NONE = '-';

/** A member as the send path needs it: the role, and the end of a mute (epoch ms) if one was set. */
export interface MemberStanding {
  role: GroupRole;
  mutedUntil?: number;
}

/** The group a panel's converse belongs to, who may post in that panel, and whether it is a voice panel. */
export interface PanelHome {
  groupId: string;
  postingRole: PostingRole;
  /** Present on voice panels only (a panel's type never changes). */
  panelType?: 'voice';
}

// Cached values are short strings: `role` or `role|mutedUntilMs`; `groupId`, then `|admin` and/or `|voice`.
const encodeStanding = (s: MemberStanding) => (s.mutedUntil ? `${s.role}|${s.mutedUntil}` : s.role);
const decodeStanding = (text: string): MemberStanding => {
  const [role, until] = text.split('|');
  return { role: role as GroupRole, ...(until ? { mutedUntil: Number(until) } : {}) };
};
const encodeHome = (h: PanelHome) =>
  h.groupId + (h.postingRole === 'admin' ? '|admin' : '') + (h.panelType === 'voice' ? '|voice' : '');
const decodeHome = (text: string): PanelHome => {
  const [groupId, ...flags] = text.split('|');
  return {
    groupId: groupId!,
    postingRole: flags.includes('admin') ? 'admin' : 'member',
    ...(flags.includes('voice') ? { panelType: 'voice' as const } : {}),
  };
};

/**
 * Answers "is user U a member of converse C, with what role, muted until
 * when, and who may post there" for the chat service's every send: two
 * cached lookups (converse -> group and panel rule, then group+user ->
 * standing), each backed by an index. Writers and the event handlers of
 * every group node drop the entries a change touches. A mute's end is a
 * time, so it needs no invalidation when it passes.
 */
export class MembershipCache {
  readonly #cache: KvCache;
  readonly #models: GroupModels;
  readonly #ttl: number;

  /** Misses of one turn, one query per group: a connect storm checks thousands of members at once. */
  readonly #loadStanding: (key: { groupId: string; userId: string }) => Promise<MemberStanding | null>;

  constructor(cache: KvCache, models: GroupModels, ttlSeconds: number) {
    this.#cache = cache;
    this.#models = models;
    this.#ttl = ttlSeconds;
    this.#loadStanding = batchLoader(
      async (keys) => {
        const found = new Map<string, MemberStanding>();
        await Promise.all(
          [...groupBy(keys, (k) => k.groupId)].map(async ([groupId, list]) => {
            const docs = await this.#models.members
              .find({ groupId, userId: { $in: list.map((k) => k.userId) } }, { userId: 1, role: 1, mutedUntil: 1 })
              .lean<Array<Pick<MemberDoc, 'userId' | 'role' | 'mutedUntil'>>>();
            for (const d of docs)
              found.set(`${groupId}:${d.userId.toHexString()}`, {
                role: d.role,
                ...(d.mutedUntil ? { mutedUntil: d.mutedUntil.getTime() } : {}),
              });
          }),
        );
        return keys.map((k) => found.get(`${k.groupId}:${k.userId}`) ?? null);
      },
      { keyOf: (k) => `${k.groupId}:${k.userId}` },
    );
  }

  async converseMember(converseId: string, userId: string): Promise<ConverseMembership | null> {
    const home = await this.panelHome(converseId);
    if (!home) return null;
    const standing = await this.standing(home.groupId, userId);
    return standing ? { ...home, ...standing } : null;
  }

  /**
   * Several users of one converse at once (a sender and the users they
   * mention): the converse's group and panel rule, the role of each given
   * user who is a member, and the mutes among them. Cached standings are
   * read per user; the misses of the turn are fetched in one query (the
   * batch loader groups them by group).
   */
  async converseMembers(
    converseId: string,
    userIds: readonly string[],
  ): Promise<(PanelHome & { roles: Record<string, GroupRole>; mutedUntil: Record<string, number> }) | null> {
    const home = await this.panelHome(converseId);
    if (!home) return null;
    const unique = [...new Set(userIds)];
    const standings = await Promise.all(unique.map((userId) => this.standing(home.groupId, userId)));
    const roles: Record<string, GroupRole> = {};
    const mutedUntil: Record<string, number> = {};
    unique.forEach((userId, i) => {
      const s = standings[i];
      if (!s) return;
      roles[userId] = s.role;
      if (s.mutedUntil) mutedUntil[userId] = s.mutedUntil;
    });
    return { ...home, roles, mutedUntil };
  }

  async panelHome(converseId: string): Promise<PanelHome | null> {
    const key = `cg:${converseId}`;
    const cached = await this.#cache.get(key);
    if (cached !== undefined) return cached === NONE ? null : decodeHome(cached);
    const group = await this.#models.groups
      .findOne(
        { 'panels.converseId': converseId },
        { 'panels.converseId': 1, 'panels.postingRole': 1, 'panels.type': 1 },
      )
      .lean();
    const panel = group?.panels.find((p) => p.converseId.toHexString() === converseId);
    const home: PanelHome | null = group
      ? {
          groupId: group._id.toHexString(),
          postingRole: panel?.postingRole ?? 'member',
          ...(panel?.type === 'voice' ? { panelType: 'voice' as const } : {}),
        }
      : null;
    await this.#cache.set(key, home ? encodeHome(home) : NONE, this.#ttl);
    return home;
  }

  async standing(groupId: string, userId: string): Promise<MemberStanding | null> {
    const key = `m:${groupId}:${userId}`;
    const cached = await this.#cache.get(key);
    if (cached !== undefined) return cached === NONE ? null : decodeStanding(cached);
    const standing = await this.#loadStanding({ groupId, userId });
    await this.#cache.set(key, standing ? encodeStanding(standing) : NONE, this.#ttl);
    return standing;
  }

  async role(groupId: string, userId: string): Promise<GroupRole | null> {
    return (await this.standing(groupId, userId))?.role ?? null;
  }

  forgetMember(groupId: string, userId: string): Promise<void> {
    return this.#cache.del(`m:${groupId}:${userId}`);
  }

  forgetConverses(converseIds: string[]): Promise<void> {
    return this.#cache.del(...converseIds.map((id) => `cg:${id}`));
  }
}
