import type { DmConverse, SyncResult, UnreadEntry } from '@im/protocol';
import {
  announce,
  batchLoader,
  call,
  callerId,
  EVENTS,
  forbidden,
  invalid,
  notFound,
  type ActionParams,
  type ActionResult,
  type Ctx,
  type Params,
  defineActions,
  isDuplicateKeyError,
} from '@im/sdk';
import type { ChatDeps } from '../deps.ts';
import type { ReadDoc } from '../models.ts';
import type { DmRecord } from '../store/dm-records.ts';
import { refuseBlockedDm } from './blocked-dm.ts';
import { toDm } from './dm-view.ts';
import { chatParams } from '../params.ts';
import { unreadMentions } from '../store/mention-seqs.ts';
import { readReceipts } from './read-receipts.ts';
import { toMessage } from '../messages/views.ts';

/** More missed messages than this in one converse: the client pages history instead. */
const SYNC_LIMIT = 200;
/** The contract's limit; the gateway already drops converses the socket is not in. */
const MAX_SYNC_CONVERSES = 500;
/** Most DMs `GET /api/dms` lists: the most recently active ones. */
const MAX_DMS_LISTED = 1000;

/** When a DM was last active: its latest message, else its opening (the id's second for DMs older than createdAt). */
const activeAt = (doc: DmRecord) => (doc.lastMessageAt ?? doc.createdAt ?? doc._id.getTimestamp()).getTime();

export const converseActions = (deps: ChatDeps) => {
  const { models, store, access, dmIndex, voters } = deps;
  const receipts = readReceipts(deps);
  /** The DMs of each user, for every user asking in this turn in one query (connect storms). */
  const dmsOf = batchLoader<string, DmRecord[]>(async (userIds) => {
    const docs = await store.dms.ofMembers(userIds);
    const byMember = new Map<string, DmRecord[]>(userIds.map((id) => [id, []]));
    for (const doc of docs) for (const m of doc.memberIds ?? []) byMember.get(m.toHexString())?.push(doc);
    return userIds.map((id) => byMember.get(id)!);
  });

  /**
   * What `sync` answers for one converse and cursor. The converse's counter
   * decides first: nothing new, or too much to send, needs no message read.
   */
  const missedSince = async (converseId: string, lastSeq: number): Promise<SyncResult['converses'][string]> => {
    const stamp = await store.read.stampOf(converseId);
    if (stamp.lastSeq - lastSeq > SYNC_LIMIT) return { messages: [], tooMany: true, lastSeq: stamp.lastSeq };
    const docs = await store.read.since(converseId, lastSeq, SYNC_LIMIT, stamp);
    return { messages: docs.map((d) => toMessage(d)) };
  };

  /** Every converse of a user: group panels (two indexed queries in the group service) and DMs (one here). */
  const myConverses = async (ctx: Ctx<object>, userId: string) => {
    const [groupConverses, dms] = await Promise.all([call(ctx, 'group.userConverses', { userId }), dmsOf(userId)]);
    return { groups: groupConverses, groupIds: groupConverses.flatMap((g) => g.converseIds), dms };
  };

  return defineActions('chat', {
    /** The DM between the caller and another user; the same one every time. */
    openDm: {
      params: chatParams.openDm,
      rateLimit: 'dm-open',
      async handler(ctx: Ctx<Params<typeof chatParams.openDm>>): Promise<DmConverse> {
        const me = callerId(ctx);
        const other = ctx.params.userId;
        // A valid id, but not one this caller may open a DM with: refused, not malformed.
        if (other === me) throw forbidden('A DM needs another user');
        // Bots act within their group only: they take no DMs.
        const found = (await call(ctx, 'user.getMany', { ids: [other] }))[other];
        if (!found || found.bot) throw notFound('user');
        await refuseBlockedDm(ctx, me, other);
        const dm = toDm(await store.dms.open([me, other]));
        announce(ctx, EVENTS.dmOpened, { converse: dm });
        return dm;
      },
    },

    /**
     * The caller's DMs, most recently active first (latest message, else when
     * the DM was opened; ties by id, descending), at most MAX_DMS_LISTED.
     */
    listDms: {
      params: chatParams.listDms,
      async handler(ctx: Ctx): Promise<DmConverse[]> {
        const dms = await dmsOf(callerId(ctx));
        // dmsOf's answer may be shared with other callers of this turn: sort a copy.
        return dms
          .map((doc) => ({ doc, at: activeAt(doc), id: doc._id.toHexString() }))
          .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
          .slice(0, MAX_DMS_LISTED)
          .map(({ doc }) => toDm(doc));
      },
    },

    /** Moves the caller's read position forward (never back, never past the last message). */
    ack: {
      params: chatParams.ack,
      async handler(ctx: Ctx<Params<typeof chatParams.ack>>): Promise<void> {
        const userId = callerId(ctx);
        const { converseId } = ctx.params;
        const converse = await access.require(ctx, converseId, userId);
        const seq = Math.min(ctx.params.seq, (await store.counters.of(converseId)).lastSeq);
        if (seq <= 0) return;
        // $max never moves the position back; the previous value tells whether it moved.
        const previous = await models.reads
          .findOneAndUpdate(
            { userId, converseId },
            // Mentions at or below the new position are read: no longer kept.
            { $max: { readSeq: seq }, $pull: { mentionSeqs: { $lte: seq } } },
            { upsert: true, new: false, projection: { readSeq: 1 } },
          )
          .lean<Pick<ReadDoc, 'readSeq'>>();
        if ((previous?.readSeq ?? 0) < seq) {
          announce(ctx, EVENTS.converseRead, { converseId, userId, readSeq: seq });
          await receipts.announce(ctx, converse, userId, seq);
        }
      },
    },

    /**
     * Unread and mention counts for all the caller's converses in a fixed
     * number of queries, however many converses there are.
     */
    unread: {
      params: chatParams.unread,
      async handler(ctx: Ctx): Promise<UnreadEntry[]> {
        const userId = callerId(ctx);
        const { groupIds, dms } = await myConverses(ctx, userId);
        const counters = await store.counters.ofMany(groupIds);
        const lastSeq = new Map<string, number>([...counters, ...dms].map((c) => [c._id.toHexString(), c.lastSeq]));
        const lastMany = new Map([...counters, ...dms].map((c) => [c._id.toHexString(), c.lastManySeq ?? 0]));
        const ids = [...groupIds, ...dms.map((d) => d._id.toHexString())];
        if (ids.length === 0) return [];
        const reads = await models.reads
          .find({ userId, converseId: { $in: ids } }, { converseId: 1, readSeq: 1, mentionSeqs: 1 })
          .lean<ReadDoc[]>();
        const readOf = new Map(reads.map((r) => [r.converseId.toHexString(), r]));
        // Only converses with an @all / @here above the reader's position are looked into.
        const many = await store.read.unreadManySeqs(
          userId,
          ids.flatMap((converseId) => {
            const readSeq = readOf.get(converseId)?.readSeq ?? 0;
            return (lastMany.get(converseId) ?? 0) > readSeq ? [{ converseId, readSeq }] : [];
          }),
        );
        return ids.map((converseId) => {
          const last = lastSeq.get(converseId) ?? 0;
          const position = readOf.get(converseId);
          const read = Math.min(position?.readSeq ?? 0, last);
          return {
            converseId,
            lastSeq: last,
            readSeq: read,
            unread: last - read,
            mentions: unreadMentions(position, many.get(converseId)),
          };
        });
      },
    },

    /** For other services (files, push, realtime): the caller's access to a converse, or null. */
    access: {
      visibility: 'public' as const,
      params: chatParams.access,
      handler(ctx: Ctx<ActionParams<'chat.access'>>): Promise<ActionResult<'chat.access'>> {
        return access.resolve(ctx, ctx.params.converseId, ctx.params.userId);
      },
    },

    /** Read positions for another service (missed-message e-mails check them just before sending). */
    readSeqs: {
      visibility: 'public' as const,
      params: chatParams.readSeqs,
      async handler(ctx: Ctx<ActionParams<'chat.readSeqs'>>): Promise<ActionResult<'chat.readSeqs'>> {
        const { userId, converseIds } = ctx.params;
        const reads = await models.reads
          .find({ userId, converseId: { $in: converseIds } }, { converseId: 1, readSeq: 1 })
          .lean<ReadDoc[]>();
        const positions: Record<string, number> = Object.fromEntries(converseIds.map((id) => [id, 0]));
        for (const read of reads) positions[read.converseId.toHexString()] = read.readSeq;
        return positions;
      },
    },

    /**
     * For the group service, as a member joins: their read positions in the
     * group's converses start at the newest message, so what was said before
     * they joined (an `@all` included) is neither unread nor a mention.
     * Never moves a position back (a member who comes back keeps theirs if
     * it is further on).
     */
    startReading: {
      visibility: 'public' as const,
      params: chatParams.startReading,
      async handler(ctx: Ctx<ActionParams<'chat.startReading'>>): Promise<void> {
        const { userId, converseIds } = ctx.params;
        const counters = await store.counters.ofMany(converseIds);
        for (const { _id: converseId, lastSeq } of counters) {
          if (!lastSeq) continue;
          const update = { $max: { readSeq: lastSeq }, $pull: { mentionSeqs: { $lte: lastSeq } } };
          const filter = { userId, converseId };
          // Two upserts of a new key at once: the loser finds the winner's document on a second try.
          await models.reads
            .updateOne(filter, update, { upsert: true })
            .catch((err: unknown) =>
              isDuplicateKeyError(err) ? models.reads.updateOne(filter, update) : Promise.reject(err),
            );
        }
      },
    },

    /** The rooms a user's sockets join at connect: every group with its converses, and every DM. */
    userRooms: {
      visibility: 'public' as const,
      params: chatParams.userRooms,
      async handler(ctx: Ctx<ActionParams<'chat.userRooms'>>): Promise<ActionResult<'chat.userRooms'>> {
        const { userId } = ctx.params;
        // From the indexes (the group service's and this one's DMs) when they are ready: no database command.
        const [groups, dmIds] = await Promise.all([
          call(ctx, 'group.userConverses', { userId }),
          dmIndex.dmIdsOf(userId).then(async (ids) => ids ?? (await dmsOf(userId)).map((d) => d._id.toHexString())),
        ]);
        return { groups, dmIds };
      },
    },

    /**
     * For presence: which of `ids` share a DM with a message in it (one query,
     * the user's DMs) or a group (one call, for the rest) with the user.
     */
    contactsAmong: {
      visibility: 'public' as const,
      params: chatParams.contactsAmong,
      async handler(ctx: Ctx<ActionParams<'chat.contactsAmong'>>): Promise<ActionResult<'chat.contactsAmong'>> {
        const { userId, ids } = ctx.params;
        // A DM nobody wrote in is no contact: anyone may open one with anyone, and would see them.
        const written = (await dmsOf(userId)).filter((d) => (d.lastSeq ?? 0) > 0);
        const partners = new Set(written.flatMap((d) => (d.memberIds ?? []).map((m) => m.toHexString())));
        partners.add(userId);
        const rest = ids.filter((id) => !partners.has(id));
        const inGroups = new Set(
          rest.length > 0 ? await call(ctx, 'group.coMembersAmong', { userId, ids: [...new Set(rest)] }) : [],
        );
        return ids.filter((id) => partners.has(id) || inGroups.has(id));
      },
    },

    /**
     * Catch-up after a reconnect: per converse, exactly the messages above the
     * client's last seq (or `tooMany` past 200, to page history instead).
     * Converses the caller is not in are left out.
     */
    sync: {
      params: chatParams.sync,
      rateLimit: 'sync',
      async handler(ctx: Ctx<ActionParams<'chat.sync'>>): Promise<ActionResult<'chat.sync'>> {
        const userId = callerId(ctx);
        const entries = Object.entries(ctx.params.cursors);
        if (entries.length > MAX_SYNC_CONVERSES) throw invalid(`At most ${MAX_SYNC_CONVERSES} converses per sync`);
        const out: SyncResult['converses'] = {};
        await Promise.all(
          entries.map(async ([converseId, lastSeq]) => {
            if (!(await access.resolve(ctx, converseId, userId))) return;
            const missed = await missedSince(converseId, lastSeq);
            // Polls with the reader's own votes (one query, none without polls).
            out[converseId] = missed.tooMany ? missed : { messages: await voters.fill(missed.messages, userId) };
          }),
        );
        return { converses: out };
      },
    },
  });
};
