import type { ConverseAccess, ReadReceipt } from '@im/protocol';
import { announce, call, callerId, EVENTS, sweepStale, type Ctx, type Params } from '@im/sdk';
import { LRUCache } from 'lru-cache';
import type { Context } from 'moleculer';
import type { ChatDeps } from '../deps.ts';
import type { ReadDoc } from '../models.ts';
import { chatParams } from '../params.ts';
import { audience } from '../messages/views.ts';

/**
 * Read receipts exist in converses of at most this many members. In a larger
 * one, who read what is noise and its fan-out costly: the list is empty
 * there (the converse has no receipts, which is no error) and acks emit none.
 */
export const RECEIPTS_UP_TO = 50;

/** The converse's members when it is small enough for receipts, else null (at most one call). */
async function smallConverseMembers(ctx: Context, converse: ConverseAccess): Promise<string[] | null> {
  if (converse.kind === 'dm') return converse.memberIds;
  const roster = await call(ctx, 'group.converseRoster', {
    converseId: converse.converseId,
    maxIds: RECEIPTS_UP_TO,
  });
  return roster?.memberIds ?? null;
}

/**
 * Whether a group converse is small enough for receipts, as last asked: an
 * ack in a 10,000-member group must not cost a roster call each time.
 * Thirty seconds stale at most (a group crossing 50 members meanwhile
 * announces or stops a little late).
 */
const smallGroupConverses = sweepStale(new LRUCache<string, boolean>({ max: 50_000, ttl: 30_000 }));

async function isSmallConverse(ctx: Context, converse: ConverseAccess): Promise<boolean> {
  if (converse.kind === 'dm') return true;
  const known = smallGroupConverses.get(converse.converseId);
  if (known !== undefined) return known;
  const roster = await call(ctx, 'group.converseRoster', { converseId: converse.converseId, maxIds: 0 });
  const small = roster !== null && roster.memberCount <= RECEIPTS_UP_TO;
  smallGroupConverses.set(converse.converseId, small);
  return small;
}

/** Which of these users turned receipts off. */
const hiddenAmong = async (ctx: Context, ids: string[]) =>
  new Set(ids.length > 0 ? await call(ctx, 'user.receiptsHidden', { ids }) : []);

export const readReceipts = ({ models, access }: ChatDeps) => ({
  /**
   * Tells the converse that a member read further: only in a small converse
   * and only when that member shares receipts. The caller's own read
   * position has already moved.
   */
  async announce(ctx: Context, converse: ConverseAccess, userId: string, readSeq: number): Promise<void> {
    if (!(await isSmallConverse(ctx, converse)) || (await hiddenAmong(ctx, [userId])).has(userId)) return;
    announce(ctx, EVENTS.readUpdated, {
      converseId: converse.converseId,
      userId,
      readSeq,
      ...audience(converse),
    });
  },

  actions: {
    /** How far each member who shares receipts has read (404 outside the converse; empty when it is large). */
    reads: {
      params: chatParams.reads,
      async handler(ctx: Ctx<Params<typeof chatParams.reads>>): Promise<ReadReceipt[]> {
        const userId = callerId(ctx);
        const converse = await access.require(ctx, ctx.params.converseId, userId);
        const members = await smallConverseMembers(ctx, converse);
        if (!members || members.length === 0) return [];
        const [rows, hidden] = await Promise.all([
          models.reads
            .find({ converseId: ctx.params.converseId, userId: { $in: members }, readSeq: { $gt: 0 } })
            .select({ userId: 1, readSeq: 1 })
            .lean<Array<Pick<ReadDoc, 'userId' | 'readSeq'>>>(),
          hiddenAmong(ctx, members),
        ]);
        return rows
          .map((r) => ({ userId: r.userId.toHexString(), readSeq: r.readSeq }))
          .filter((r) => !hidden.has(r.userId));
      },
    },
  },
});
