import type { ConverseAccess } from '@im/protocol';
import { call, forbidden, ImError, notFound, sweepStale } from '@im/sdk';
import { LRUCache } from 'lru-cache';
import type { Context } from 'moleculer';
import type { MessageDoc } from '../models.ts';
import { memberIdsOf } from '../store/dm-records.ts';
import type { MessageStore } from '../store/message-store.ts';

/** How long an id with no converse document is remembered as such (a fresh panel's, before its first message). */
const UNUSED_TTL_MS = 30_000;

/**
 * Who may use a converse. Group panels: the group service's cached
 * membership lookup. DMs: their two members, which never change, so the
 * converse document is cached here for good, and so is "a converse, not a
 * DM". An id with no document yet is remembered only briefly, and never
 * trusted for a refusal: ids are predictable, so someone could ask about a
 * DM's id before it is made; before answering 404 such an id is read again.
 */
export class ConverseAccessResolver {
  readonly #store: MessageStore;
  readonly #dms = new LRUCache<string, string[] | false>({ max: 100_000 });
  /** Ids with no converse document when last read, with when that was (epoch ms). */
  readonly #unused = sweepStale(new LRUCache<string, number>({ max: 100_000, ttl: UNUSED_TTL_MS }));

  constructor(store: MessageStore) {
    this.#store = store;
  }

  /** The caller's access to a converse, or null if they are not in it (or it does not exist). */
  async resolve(ctx: Context, converseId: string, userId: string): Promise<ConverseAccess | null> {
    const askedAt = Date.now();
    const dmMembers = await this.#dmMembers(converseId);
    if (dmMembers) return dmMembers.includes(userId) ? { kind: 'dm', converseId, memberIds: dmMembers } : null;
    const member = await call(ctx, 'group.converseMember', { converseId, userId });
    if (member) return { kind: 'group', converseId, ...member };
    const fresh = await this.#recheck(converseId, askedAt);
    return fresh && fresh.includes(userId) ? { kind: 'dm', converseId, memberIds: fresh } : null;
  }

  /** Like resolve, but a converse the caller is not in does not exist for them. */
  async require(ctx: Context, converseId: string, userId: string): Promise<ConverseAccess> {
    const access = await this.resolve(ctx, converseId, userId);
    if (!access) throw notFound('converse');
    return access;
  }

  /** A message the caller may see, with their access to its converse; 404 otherwise (outsiders learn nothing). */
  async requireMessage(
    ctx: Context,
    messageId: string,
    userId: string,
  ): Promise<{ doc: MessageDoc; converse: ConverseAccess }> {
    const doc = await this.#store.read.byId(messageId);
    const converse = doc ? await this.resolve(ctx, doc.converseId.toHexString(), userId) : null;
    if (!doc || !converse) throw notFound('message');
    return { doc, converse };
  }

  /**
   * The caller's access (404 when they are not in the converse) and which of
   * `others` are members too, in at most one call to the group service
   * however many others there are: a send checks its sender and everyone it
   * mentions at once.
   */
  async requireWithMembers(
    ctx: Context,
    converseId: string,
    userId: string,
    others: readonly string[],
    handles: readonly string[] = [],
  ): Promise<{ access: ConverseAccess; members: string[] }> {
    const askedAt = Date.now();
    const dmMembers = await this.#dmMembers(converseId);
    if (dmMembers) return this.#inDm(converseId, dmMembers, userId, others);
    const found = await call(ctx, 'group.converseMembers', {
      converseId,
      userIds: [userId, ...others],
      ...(handles.length > 0 ? { handles: [...handles] } : {}),
    });
    const role = found?.roles[userId];
    if (!found || !role) {
      const fresh = await this.#recheck(converseId, askedAt);
      if (fresh) return this.#inDm(converseId, fresh, userId, others);
      throw notFound('converse');
    }
    const mutedUntil = found.mutedUntil[userId];
    return {
      access: {
        kind: 'group',
        converseId,
        groupId: found.groupId,
        role,
        postingRole: found.postingRole,
        permissions: found.permissions[userId] ?? [],
        ...(mutedUntil ? { mutedUntil } : {}),
        ...(found.private ? { private: true as const } : {}),
      },
      members: withHandleMembers(
        others.filter((id) => found.roles[id] !== undefined),
        found.handleMemberIds,
        userId,
      ),
    };
  }

  #inDm(converseId: string, dmMembers: string[], userId: string, others: readonly string[]) {
    if (!dmMembers.includes(userId)) throw notFound('converse');
    return {
      access: { kind: 'dm' as const, converseId, memberIds: dmMembers },
      members: others.filter((id) => dmMembers.includes(id)),
    };
  }

  /**
   * Which of `userIds` are members of a converse the caller already has
   * access to, with the members of the user groups `handles` names who may
   * read it, `authorId` left out of those (one call at most).
   */
  async membersAmong(
    ctx: Context,
    access: ConverseAccess,
    userIds: readonly string[],
    handles: readonly string[] = [],
    authorId?: string,
  ): Promise<string[]> {
    if (access.kind === 'dm') return userIds.filter((id) => access.memberIds.includes(id));
    if (userIds.length === 0 && handles.length === 0) return [];
    const found = await call(ctx, 'group.converseMembers', {
      converseId: access.converseId,
      userIds: [...userIds],
      ...(handles.length > 0 ? { handles: [...handles] } : {}),
    });
    if (!found) return [];
    return withHandleMembers(
      userIds.filter((id) => found.roles[id] !== undefined),
      found.handleMemberIds,
      authorId,
    );
  }

  /** A DM's members; false when the id is a converse that is not a DM, or (for a while) no converse yet. */
  async #dmMembers(converseId: string): Promise<string[] | false> {
    const cached = this.#dms.get(converseId);
    if (cached !== undefined) return cached;
    if (this.#unused.has(converseId)) return false;
    return this.#read(converseId);
  }

  /** Before a refusal: an id remembered as unused since before `askedAt` is read again (it may be a DM now). */
  async #recheck(converseId: string, askedAt: number): Promise<string[] | false> {
    const readAt = this.#unused.get(converseId);
    return readAt !== undefined && readAt < askedAt ? this.#read(converseId) : false;
  }

  async #read(converseId: string): Promise<string[] | false> {
    const doc = await this.#store.dms.kindOf(converseId);
    if (!doc) {
      this.#unused.set(converseId, Date.now());
      return false;
    }
    this.#unused.delete(converseId);
    // A converse's kind never changes: kept for good.
    const members = doc.type === 'dm' ? memberIdsOf(doc) : false;
    this.#dms.set(converseId, members);
    return members;
  }
}

/**
 * Those mentioned by name, then the members of mentioned user groups (a
 * mention through `@handle` is a mention like any other), each once; the
 * author is not mentioned by a user group they are in.
 */
function withHandleMembers(named: string[], handleMemberIds: string[] | undefined, authorId?: string): string[] {
  if (!handleMemberIds || handleMemberIds.length === 0) return named;
  const all = new Set(named);
  for (const id of handleMemberIds) if (id !== authorId) all.add(id);
  return [...all];
}

/** A muted member may not send, react or edit in the group until the mute's end (403 IM_ERR_MUTED). */
export function refuseMuted(access: ConverseAccess, now = Date.now()): void {
  if (access.kind === 'group' && access.mutedUntil !== undefined && access.mutedUntil > now)
    throw new ImError(
      'IM_ERR_MUTED',
      `You are muted in this group until ${new Date(access.mutedUntil).toISOString()}`,
      {
        mutedUntil: new Date(access.mutedUntil).toISOString(),
      },
    );
}

/** Muted members cannot post; in an announcement panel (postingRole 'admin') plain members cannot either. */
export function refuseUnableToPost(access: ConverseAccess): void {
  refuseMuted(access);
  if (access.kind === 'group' && access.postingRole === 'admin' && access.role === 'member')
    throw forbidden('Only admins can post in this panel');
}
