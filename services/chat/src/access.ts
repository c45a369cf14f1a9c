import type { GroupRole } from '@im/protocol';
import { ImError } from '@im/sdk';
import { LRUCache } from 'lru-cache';
import type { Context } from 'moleculer';
import type { ChatModels, ConverseDoc } from './models.ts';

export type ConverseAccess =
  | { kind: 'group'; converseId: string; groupId: string; role: GroupRole }
  | { kind: 'dm'; converseId: string; memberIds: string[] };

/**
 * Who may use a converse. Group panels: the group service's cached
 * membership lookup. DMs: their two members, which never change, so the
 * converse document is cached here for good.
 */
export class ConverseAccessResolver {
  readonly #models: ChatModels;
  readonly #dms = new LRUCache<string, string[] | false>({ max: 100_000 });

  constructor(models: ChatModels) {
    this.#models = models;
  }

  /** The caller's access to a converse, or null if they are not in it (or it does not exist). */
  async resolve(ctx: Context, converseId: string, userId: string): Promise<ConverseAccess | null> {
    const dmMembers = await this.#dmMembers(converseId);
    if (dmMembers) return dmMembers.includes(userId) ? { kind: 'dm', converseId, memberIds: dmMembers } : null;
    const member = (await ctx.call('group.converseMember', { converseId, userId })) as {
      groupId: string;
      role: GroupRole;
    } | null;
    return member ? { kind: 'group', converseId, ...member } : null;
  }

  /** Like resolve, but a converse the caller is not in does not exist for them. */
  async require(ctx: Context, converseId: string, userId: string): Promise<ConverseAccess> {
    const access = await this.resolve(ctx, converseId, userId);
    if (!access) throw new ImError('IM_ERR_NOT_FOUND', 'Converse not found');
    return access;
  }

  async #dmMembers(converseId: string): Promise<string[] | false> {
    const cached = this.#dms.get(converseId);
    if (cached !== undefined) return cached;
    const doc = await this.#models.converses.findById(converseId, { type: 1, memberIds: 1 }).lean<ConverseDoc>();
    const members = doc?.type === 'dm' ? (doc.memberIds ?? []).map((id) => id.toHexString()) : false;
    // Caching "not a DM" is safe too: a DM's id is made when the DM is, so no
    // one can have asked about it before.
    this.#dms.set(converseId, members);
    return members;
  }
}
