import type { ConverseMembership, GroupRole, MemberAccess, Permission, PostingRole } from '@im/protocol';
import { batchLoader, groupBy, type KvCache } from '@im/sdk';
import { LRUCache } from 'lru-cache';
import type { GroupDoc, GroupModels, MemberDoc, UserGroupDoc } from './models.ts';
import { maySee, permissionsOf, rulesOf, type GroupRules } from './permissions.ts';

const NONE = '-';

/** A group's user groups: handle -> member ids. */
export type UserGroupTable = Record<string, string[]>;

/** A member as the send path needs it: the role, the end of a mute (epoch ms) if one was set, custom roles. */
export interface MemberStanding {
  role: GroupRole;
  mutedUntil?: number;
  roleIds?: string[];
}

/** The group a panel's converse belongs to, who may post in that panel, and whether it is a voice panel. */
export interface PanelHome {
  groupId: string;
  postingRole: PostingRole;
  /** Present on voice panels only (a panel's type never changes). */
  panelType?: 'voice';
}

// Cached values are short strings: `role`, `role|mutedUntilMs` or `role|mutedUntilMs|roleId,roleId`;
// `groupId`, then `|admin` and/or `|voice`; a group's rules as JSON.
const encodeStanding = (s: MemberStanding) =>
  s.roleIds?.length
    ? `${s.role}|${s.mutedUntil ?? ''}|${s.roleIds.join(',')}`
    : s.mutedUntil
      ? `${s.role}|${s.mutedUntil}`
      : s.role;
const decodeStanding = (text: string): MemberStanding => {
  const [role, until, roleIds] = text.split('|');
  return {
    role: role as GroupRole,
    ...(until ? { mutedUntil: Number(until) } : {}),
    ...(roleIds ? { roleIds: roleIds.split(',') } : {}),
  };
};
const standingOfDoc = (d: Pick<MemberDoc, 'role' | 'mutedUntil' | 'roleIds'>): MemberStanding => ({
  role: d.role,
  ...(d.mutedUntil ? { mutedUntil: d.mutedUntil.getTime() } : {}),
  ...(d.roleIds?.length ? { roleIds: d.roleIds.map((id) => id.toHexString()) } : {}),
});
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
  /**
   * Forgets seen by this node so far. A value read from MongoDB is kept only
   * if nothing was forgotten while it was read: a lookup that read a
   * membership just before a kick must not put it back just after the kick
   * dropped it (the kicked member would still post until the entry expired).
   */
  #forgets = 0;
  /** Rules as parsed, by their cached text: every send reads them, and they rarely change. */
  readonly #parsedRules = new LRUCache<string, GroupRules>({ max: 1000 });
  /** User group tables as parsed, by their cached text (the same reason). */
  readonly #parsedTables = new LRUCache<string, UserGroupTable>({ max: 1000 });

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
              .find(
                { groupId, userId: { $in: list.map((k) => k.userId) } },
                { userId: 1, role: 1, mutedUntil: 1, roleIds: 1 },
              )
              .lean<Array<Pick<MemberDoc, 'userId' | 'role' | 'mutedUntil' | 'roleIds'>>>();
            for (const d of docs) found.set(`${groupId}:${d.userId.toHexString()}`, standingOfDoc(d));
          }),
        );
        return keys.map((k) => found.get(`${k.groupId}:${k.userId}`) ?? null);
      },
      { keyOf: (k) => `${k.groupId}:${k.userId}` },
    );
    this.#loadRules = batchLoader(async (groupIds) => {
      const docs = await this.#models.groups
        .find({ _id: { $in: groupIds } }, { roles: 1, everyonePermissions: 1, panels: 1 })
        .lean<Array<Pick<GroupDoc, '_id' | 'roles' | 'everyonePermissions' | 'panels'>>>();
      const byId = new Map(docs.map((d) => [d._id.toHexString(), rulesOf(d)]));
      return groupIds.map((id) => byId.get(id) ?? null);
    });
  }

  readonly #loadRules: (groupId: string) => Promise<GroupRules | null>;

  /**
   * A member's place in a panel's group, or null when they are not a member
   * or the panel is private and they are not among those allowed.
   */
  async converseMember(converseId: string, userId: string): Promise<ConverseMembership | null> {
    const home = await this.panelHome(converseId);
    if (!home) return null;
    const [standing, rules] = await Promise.all([this.standing(home.groupId, userId), this.rules(home.groupId)]);
    if (!standing || !rules) return null;
    const audience = rules.privatePanels[converseId];
    if (!maySee(standing, userId, audience)) return null;
    const { roleIds: _roleIds, ...rest } = standing;
    return {
      ...home,
      ...rest,
      permissions: permissionsOf(standing, rules),
      ...(audience ? { private: true as const } : {}),
    };
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
    handles: readonly string[] = [],
  ): Promise<
    | (PanelHome & {
        roles: Record<string, GroupRole>;
        mutedUntil: Record<string, number>;
        permissions: Record<string, Permission[]>;
        private?: true;
        handleMemberIds?: string[];
      })
    | null
  > {
    const home = await this.panelHome(converseId);
    if (!home) return null;
    const unique = [...new Set(userIds)];
    const [rules, standings, handleMembers] = await Promise.all([
      this.rules(home.groupId),
      Promise.all(unique.map((userId) => this.standing(home.groupId, userId))),
      handles.length > 0 ? this.#handleMembers(home.groupId, handles) : undefined,
    ]);
    if (!rules) return null;
    const audience = rules.privatePanels[converseId];
    // `@handle`: its members who may read this panel (those who left were taken off; the standing says so anyway).
    const handleMemberIds = handleMembers?.ids.filter((id, i) => {
      const s = handleMembers.standings[i];
      return s !== null && s !== undefined && maySee(s, id, audience);
    });
    const roles: Record<string, GroupRole> = {};
    const mutedUntil: Record<string, number> = {};
    const permissions: Record<string, Permission[]> = {};
    unique.forEach((userId, i) => {
      const s = standings[i];
      // Those who may not see a private panel are not its members.
      if (!s || !maySee(s, userId, audience)) return;
      roles[userId] = s.role;
      permissions[userId] = permissionsOf(s, rules);
      if (s.mutedUntil) mutedUntil[userId] = s.mutedUntil;
    });
    return {
      ...home,
      roles,
      mutedUntil,
      permissions,
      ...(audience ? { private: true as const } : {}),
      ...(handleMemberIds ? { handleMemberIds } : {}),
    };
  }

  /**
   * A group's user groups as the send path reads them: handle -> member ids,
   * one cached value per group (a message that writes `@word` costs this one
   * lookup, whatever the word is). Dropped by every change to them.
   */
  async userGroupTable(groupId: string): Promise<UserGroupTable> {
    const key = `ug:${groupId}`;
    const cached = await this.#cache.get(key);
    if (cached !== undefined) return this.#parseTable(cached);
    const seen = this.#forgets;
    const docs = await this.#models.userGroups
      .find({ groupId }, { handle: 1, memberIds: 1 })
      .lean<Array<Pick<UserGroupDoc, 'handle' | 'memberIds'>>>();
    const table: UserGroupTable = Object.fromEntries(
      docs.map((d) => [d.handle, d.memberIds.map((id) => id.toHexString())]),
    );
    await this.#keep(seen, key, JSON.stringify(table));
    return table;
  }

  forgetUserGroups(groupId: string): Promise<void> {
    this.#forgets += 1;
    return this.#cache.del(`ug:${groupId}`);
  }

  /** The members of the written handles that exist, with their standings (cached ones in one round trip). */
  async #handleMembers(groupId: string, handles: readonly string[]) {
    const table = await this.userGroupTable(groupId);
    const ids = [...new Set(handles.flatMap((h) => (Object.hasOwn(table, h) ? table[h]! : [])))];
    if (ids.length === 0) return { ids, standings: [] };
    const cached = await this.#cache.getMany(ids.map((id) => `m:${groupId}:${id}`));
    const standings = await Promise.all(
      ids.map((id, i) => {
        const text = cached[i];
        if (text === undefined) return this.standing(groupId, id);
        return text === NONE ? null : decodeStanding(text);
      }),
    );
    return { ids, standings };
  }

  #parseTable(text: string): UserGroupTable {
    let table = this.#parsedTables.get(text);
    if (!table) {
      table = JSON.parse(text) as UserGroupTable;
      this.#parsedTables.set(text, table);
    }
    return table;
  }

  async panelHome(converseId: string): Promise<PanelHome | null> {
    const key = `cg:${converseId}`;
    const cached = await this.#cache.get(key);
    if (cached !== undefined) return cached === NONE ? null : decodeHome(cached);
    const seen = this.#forgets;
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
    await this.#keep(seen, key, home ? encodeHome(home) : NONE);
    return home;
  }

  async standing(groupId: string, userId: string): Promise<MemberStanding | null> {
    const key = `m:${groupId}:${userId}`;
    const cached = await this.#cache.get(key);
    if (cached !== undefined) return cached === NONE ? null : decodeStanding(cached);
    const seen = this.#forgets;
    const standing = await this.#loadStanding({ groupId, userId });
    await this.#keep(seen, key, standing ? encodeStanding(standing) : NONE);
    return standing;
  }

  async role(groupId: string, userId: string): Promise<GroupRole | null> {
    return (await this.standing(groupId, userId))?.role ?? null;
  }

  /** A member's role, custom roles and permissions in a group, or null when not a member. */
  async access(groupId: string, userId: string): Promise<MemberAccess | null> {
    const [standing, rules] = await Promise.all([this.standing(groupId, userId), this.rules(groupId)]);
    if (!standing || !rules) return null;
    return { role: standing.role, roleIds: standing.roleIds ?? [], permissions: permissionsOf(standing, rules) };
  }

  /** A group's roles and private panels (null: no such group). */
  async rules(groupId: string): Promise<GroupRules | null> {
    const key = `gr:${groupId}`;
    const cached = await this.#cache.get(key);
    if (cached !== undefined) return cached === NONE ? null : this.#parseRules(cached);
    const seen = this.#forgets;
    const rules = await this.#loadRules(groupId);
    await this.#keep(seen, key, rules ? JSON.stringify(rules) : NONE);
    return rules;
  }

  forgetRules(groupId: string): Promise<void> {
    this.#forgets += 1;
    return this.#cache.del(`gr:${groupId}`);
  }

  forgetMember(groupId: string, userId: string): Promise<void> {
    this.#forgets += 1;
    return this.#cache.del(`m:${groupId}:${userId}`);
  }

  forgetMembers(groupId: string, userIds: string[]): Promise<void> {
    this.#forgets += 1;
    return userIds.length > 0 ? this.#cache.del(...userIds.map((id) => `m:${groupId}:${id}`)) : Promise.resolve();
  }

  forgetConverses(converseIds: string[]): Promise<void> {
    this.#forgets += 1;
    return this.#cache.del(...converseIds.map((id) => `cg:${id}`));
  }

  #parseRules(text: string): GroupRules {
    let rules = this.#parsedRules.get(text);
    if (!rules) {
      rules = JSON.parse(text) as GroupRules;
      this.#parsedRules.set(text, rules);
    }
    return rules;
  }

  /** Caches what was read, unless something was forgotten since `seen` (it may be older than the forget). */
  async #keep(seen: number, key: string, value: string): Promise<void> {
    if (this.#forgets === seen) await this.#cache.set(key, value, this.#ttl);
  }
}
