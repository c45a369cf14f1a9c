import type { UserGroupConverses } from '@im/protocol';
import {
  batchLoader,
  entriesFrom,
  loadInChunks,
  rebuildAtStart,
  setsOf,
  type IndexEntry,
  type IndexSource,
  type Logger,
  type Scored,
  type SetChange,
  type SetIndexStore,
} from '@im/sdk';
import type { GroupDoc, GroupModels, MemberDoc } from './models.ts';

// The sets kept per user and per group:
//   u:<userId>   the user's groups, by join time (as the members query lists them)
//   m:<groupId>  the group's members: its size is the group's memberCount
//   c:<groupId>  EXISTS first (the group document exists), then its panels' converses, a private
//                panel's marked PRIVATE (who sees it is decided as the index is read)
const userKey = (id: string) => `u:${id}`;
const membersKey = (id: string) => `m:${id}`;
const conversesKey = (id: string) => `c:${id}`;
/**
 * Marks a group whose document exists, so members left behind by an
 * interrupted deletion (the document goes first) list nothing, as before.
 * Scored below every converse, so it comes first.
 */
const EXISTS = '-';
/** Converses keep the order of their ids, which is the order panels were made in. */
const PANEL_SCORE = 0;
/** Prefix of a private panel's converse in c:<groupId>. */
const PRIVATE = '*';
const panelMember = (converseId: string, isPrivate: boolean) => (isPrivate ? PRIVATE + converseId : converseId);

/** A user's group as the index holds it: private panels' converses apart, for the reader to filter. */
export interface IndexedGroup extends UserGroupConverses {
  privateConverseIds: string[];
}

/** Splits a group's indexed converses into those everyone sees and private ones. */
export const splitConverses = (members: readonly string[]) => {
  const converseIds: string[] = [];
  const privateConverseIds: string[] = [];
  for (const m of members) {
    if (m.startsWith(PRIVATE)) privateConverseIds.push(m.slice(PRIVATE.length));
    else converseIds.push(m);
  }
  return { converseIds, privateConverseIds };
};

/**
 * The user -> groups -> converses index a socket's connect reads its rooms
 * from (`group.userConverses`), in O(rooms) and without a database command.
 * Kept by the writers of membership, groups and panels right after their
 * MongoDB write succeeded (before the event goes out), so in a cluster the
 * shared Redis store is changed once, by the node that made the change; the
 * in-memory store exists only on a single instance, where that node is the
 * only one. Rebuilt from MongoDB at start (rebuild.ts has how writes made
 * meanwhile are kept). While no generation is ready, `userConverses`
 * answers undefined and the caller queries MongoDB as before.
 */
export class GroupRoomIndex {
  readonly #store: SetIndexStore | undefined;
  readonly #models: GroupModels;
  readonly #logger: Logger;
  readonly #read: (userId: string) => Promise<IndexedGroup[] | undefined>;

  constructor(store: SetIndexStore | undefined, models: GroupModels, logger: Logger, maxGroupsPerUser: number) {
    this.#store = store;
    this.#models = models;
    this.#logger = logger;
    // Every connect of one event-loop turn in two store reads: users' groups, then those groups.
    const read = async (userIds: readonly string[]) => {
      const none = userIds.map(() => undefined);
      const users = store && (await store.read(userIds.map(userKey)));
      if (!store || !users) return none;
      const groupsOf = users.members.map((ids) => ids.slice(0, maxGroupsPerUser));
      const groupIds = [...new Set(groupsOf.flat())];
      const groups = await store.read(groupIds.map(conversesKey), groupIds.map(membersKey));
      if (!groups) return none;
      const found = new Map(groupIds.map((id, i) => [id, { converses: groups.members[i]!, size: groups.sizes[i]! }]));
      return groupsOf.map((ids) =>
        ids.flatMap((groupId) => {
          const { converses, size } = found.get(groupId)!;
          return converses[0] === EXISTS ? [{ groupId, memberCount: size, ...splitConverses(converses.slice(1)) }] : [];
        }),
      );
    };
    this.#read = batchLoader((userIds) =>
      read(userIds).catch((err: unknown) => {
        // The store is unreachable: the database answers instead.
        logger.error({ err }, 'group room index could not be read');
        return userIds.map(() => undefined);
      }),
    );
  }

  /** The user's groups with their converses, or undefined when the index cannot answer (not ready, or none). */
  userConverses(userId: string): Promise<IndexedGroup[] | undefined> {
    return this.#read(userId);
  }

  /** A group was made, with its owner as the first member. */
  created(groupId: string, converseIds: readonly string[], ownerId: string, joinedAt: Date): Promise<void> {
    return this.#apply(
      [
        { kind: 'add', key: conversesKey(groupId), members: panelSet(converseIds) },
        ...joinChanges(groupId, ownerId, joinedAt),
      ],
      [conversesKey(groupId), membersKey(groupId), userKey(ownerId)],
    );
  }

  joined(groupId: string, userId: string, joinedAt: Date): Promise<void> {
    return this.#apply(joinChanges(groupId, userId, joinedAt), [membersKey(groupId), userKey(userId)]);
  }

  left(groupId: string, userId: string): Promise<void> {
    return this.#apply(
      [
        { kind: 'remove', key: userKey(userId), members: [groupId] },
        { kind: 'remove', key: membersKey(groupId), members: [userId] },
      ],
      [membersKey(groupId), userKey(userId)],
    );
  }

  /** The group and every member's entry for it go (the members are read from the index itself). */
  deleted(groupId: string): Promise<void> {
    return this.#apply(
      [
        { kind: 'drop', key: conversesKey(groupId) },
        { kind: 'drop', key: membersKey(groupId), backlink: { prefix: 'u:', member: groupId } },
      ],
      [conversesKey(groupId), membersKey(groupId)],
    );
  }

  panelAdded(groupId: string, converseId: string, isPrivate = false): Promise<void> {
    return this.#apply(
      [{ kind: 'add', key: conversesKey(groupId), members: [[panelMember(converseId, isPrivate), PANEL_SCORE]] }],
      [conversesKey(groupId)],
    );
  }

  panelRemoved(groupId: string, converseId: string): Promise<void> {
    return this.#apply(
      [{ kind: 'remove', key: conversesKey(groupId), members: [converseId, panelMember(converseId, true)] }],
      [conversesKey(groupId)],
    );
  }

  /** A panel was made private or public again. */
  panelPrivacy(groupId: string, converseId: string, isPrivate: boolean): Promise<void> {
    return this.#apply(
      [
        { kind: 'remove', key: conversesKey(groupId), members: [panelMember(converseId, !isPrivate)] },
        { kind: 'add', key: conversesKey(groupId), members: [[panelMember(converseId, isPrivate), PANEL_SCORE]] },
      ],
      [conversesKey(groupId)],
    );
  }

  /**
   * Builds a generation from MongoDB and makes it the ready one; in a
   * cluster, a node that finds another node rebuilding leaves it to that one.
   * Returns what stops its retries.
   */
  rebuild(): Promise<() => void> {
    return rebuildAtStart(this.#store, this.#source(), this.#logger, 'group-rooms');
  }

  async #apply(changes: SetChange[], dirty: string[]): Promise<void> {
    try {
      await this.#store?.apply(changes, dirty);
    } catch (err) {
      // The database write stands; the index is put right by the next rebuild.
      this.#logger.error({ err }, 'group room index could not be updated');
    }
  }

  #source(): IndexSource {
    const { groups, members } = this.#models;
    return {
      scan: (load) => {
        const groupCursor = groups
          .find({}, { 'panels.converseId': 1, 'panels.private': 1 })
          .lean<GroupDoc>()
          .cursor({ batchSize: 1000 });
        const memberCursor = members
          .find({}, { groupId: 1, userId: 1, joinedAt: 1 })
          .lean<MemberDoc>()
          .cursor({ batchSize: 1000 });
        async function* everything() {
          yield* entriesFrom(groupCursor, groupEntries);
          yield* entriesFrom(memberCursor, memberEntries);
        }
        return loadInChunks(everything(), load);
      },
      reread: async (keys) => {
        const ids = (prefix: string) => keys.filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
        const [userIds, memberGroupIds, groupIds] = [ids('u:'), ids('m:'), ids('c:')];
        const [byUser, byGroup, docs] = await Promise.all([
          userIds.length
            ? members.find({ userId: { $in: userIds } }, { groupId: 1, userId: 1, joinedAt: 1 }).lean<MemberDoc[]>()
            : [],
          memberGroupIds.length
            ? members
                .find({ groupId: { $in: memberGroupIds } }, { groupId: 1, userId: 1, joinedAt: 1 })
                .lean<MemberDoc[]>()
            : [],
          groupIds.length
            ? groups
                .find({ _id: { $in: groupIds } }, { 'panels.converseId': 1, 'panels.private': 1 })
                .lean<GroupDoc[]>()
            : [],
        ]);
        // A member of a dirty group whose own key is not dirty is left out.
        return setsOf([...[...byUser, ...byGroup].flatMap(memberEntries), ...docs.flatMap(groupEntries)], keys);
      },
    };
  }
}

const panelSet = (converseIds: readonly string[]): Scored[] => [
  [EXISTS, -1],
  ...converseIds.map((id): Scored => [id, PANEL_SCORE]),
];

const joinChanges = (groupId: string, userId: string, joinedAt: Date): SetChange[] => [
  { kind: 'add', key: userKey(userId), members: [[groupId, joinedAt.getTime()]] },
  { kind: 'add', key: membersKey(groupId), members: [[userId, joinedAt.getTime()]] },
];

const groupEntries = (g: Pick<GroupDoc, '_id' | 'panels'>): IndexEntry[] => {
  const id = g._id.toHexString();
  return panelSet(g.panels.map((p) => panelMember(p.converseId.toHexString(), p.private === true))).map(([m, s]) => [
    conversesKey(id),
    m,
    s,
  ]);
};

const memberEntries = (m: Pick<MemberDoc, 'groupId' | 'userId' | 'joinedAt'>): IndexEntry[] => {
  const [groupId, userId, at] = [m.groupId.toHexString(), m.userId.toHexString(), m.joinedAt.getTime()];
  return [
    [userKey(userId), groupId, at],
    [membersKey(groupId), userId, at],
  ];
};
