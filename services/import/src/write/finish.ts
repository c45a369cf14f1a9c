import type mongoose from 'mongoose';
import { Types } from 'mongoose';
import type { ImportCollections } from './collections.ts';
import type { ConverseTally, ThreadTally } from './message-writer.ts';
import type { Destination, PlannedGroup } from './plan.ts';

type Doc = mongoose.mongo.BSON.Document;
type Op = mongoose.mongo.AnyBulkWriteOperation;

const CHUNK = 1000;

async function bulk(collection: mongoose.mongo.Collection, ops: Op[]): Promise<void> {
  for (let i = 0; i < ops.length; i += CHUNK) await collection.bulkWrite(ops.slice(i, i + CHUNK), { ordered: false });
}

/**
 * After the messages: each converse's counter moves past its last number
 * (`$max`: never back, and only now, so a converse is never seen with numbers
 * whose messages are not written yet), thread roots get their summaries, and
 * pins their count.
 */
export async function finishConverses(
  c: ImportCollections,
  converses: ReadonlyMap<string, ConverseTally>,
  threads: ReadonlyMap<string, ThreadTally>,
): Promise<void> {
  const ops: Op[] = [...converses].map(([id, t]) => ({
    updateOne: {
      filter: { _id: new Types.ObjectId(id) },
      update: {
        $max: {
          lastSeq: t.lastSeq,
          lastMessageAt: new Date(t.lastMessageAt),
          ...(t.pins > 0 ? { pinCount: t.pins } : {}),
          ...(t.lastManySeq > 0 ? { lastManySeq: t.lastManySeq } : {}),
        },
      },
    },
  }));
  await bulk(c.converses, ops);
  const roots = [...threads];
  for (let i = 0; i < roots.length; i += CHUNK) {
    const slice = roots.slice(i, i + CHUNK);
    const stored = new Map(
      (
        await c.messages
          .find({ _id: { $in: slice.map(([id]) => new Types.ObjectId(id)) } }, { projection: { thread: 1 } })
          .toArray()
      ).map((m) => [String(m._id), m.thread as StoredThread | undefined]),
    );
    // A root there already may have replies written since the last run: the summary only grows.
    const ops: Op[] = slice.flatMap(([id, t]): Op[] => {
      if (!stored.has(id)) return [];
      const had = stored.get(id);
      const participants = new Map(t.participantIds);
      for (const p of had?.participantIds ?? []) participants.set(String(p), p);
      const thread = {
        replyCount: Math.max(had?.replyCount ?? 0, t.replyCount),
        lastReplyAt: new Date(Math.max(had?.lastReplyAt?.getTime() ?? 0, t.lastReplyAt)),
        participantIds: [...participants.values()],
      };
      return [{ updateOne: { filter: { _id: new Types.ObjectId(id) }, update: { $set: { thread } } } }];
    });
    if (ops.length > 0) await c.messages.bulkWrite(ops, { ordered: false });
  }
}

interface StoredThread {
  replyCount: number;
  lastReplyAt: Date;
  participantIds: Types.ObjectId[];
}

/**
 * Every member has read every imported message of what they can see: an
 * import is history, not news (no unread badges, mentions or e-mails for it).
 */
export async function markRead(
  c: ImportCollections,
  destinations: Iterable<Destination>,
  converses: ReadonlyMap<string, ConverseTally>,
): Promise<void> {
  const ops: Op[] = [];
  for (const d of destinations) {
    const tally = converses.get(d.converseId.toHexString());
    if (!tally) continue;
    const readers = d.memberIds ?? (d.allowUserIds ? [d.group!.memberIds[0]!, ...d.allowUserIds] : d.group!.memberIds);
    for (const userId of readers) {
      ops.push({
        updateOne: {
          filter: { userId, converseId: d.converseId },
          update: { $max: { readSeq: tally.lastSeq } },
          upsert: true,
        },
      });
    }
  }
  await bulk(c.reads, ops);
}

/**
 * Memberships first, the group document last: until it exists the group
 * is reachable by nobody (every lookup starts at it), so an import cut off
 * half-way leaves nothing half-visible, and the next run completes it. A
 * group there already (an earlier run) keeps whatever was changed in it
 * since; only panels it lacks are added.
 */
export async function writeGroup(c: ImportCollections, g: PlannedGroup, ownerId: Types.ObjectId, joinedAt: Date) {
  const memberDocs: Doc[] = g.memberIds.map((userId) => ({
    groupId: g.id,
    userId,
    role: userId.equals(ownerId) ? 'owner' : 'member',
    joinedAt,
  }));
  let members = 0;
  for (let i = 0; i < memberDocs.length; i += CHUNK) {
    const ops: Op[] = memberDocs.slice(i, i + CHUNK).map((m) => ({
      updateOne: { filter: { groupId: m.groupId, userId: m.userId }, update: { $setOnInsert: m }, upsert: true },
    }));
    const res = await c.members.bulkWrite(ops, { ordered: false });
    members += res.upsertedCount;
  }
  const existing = await c.groups.findOne({ _id: g.id }, { projection: { 'panels._id': 1 } });
  const memberCount = await c.members.countDocuments({ groupId: g.id });
  if (!existing) {
    await c.groups.insertOne({
      _id: g.id,
      name: [...(g.source.name.trim() || 'Imported')].slice(0, 64).join(''),
      ownerId,
      panels: g.panels,
      memberCount,
      visibility: 'private',
      ...(g.source.description?.trim() ? { description: [...g.source.description.trim()].slice(0, 500).join('') } : {}),
      createdAt: joinedAt,
    });
    return { created: true, panels: g.panels.length, members };
  }
  const have = new Set(((existing.panels ?? []) as Array<{ _id: Types.ObjectId }>).map((p) => String(p._id)));
  const missing = g.panels.filter((p) => !have.has(String(p._id)));
  await c.groups.updateOne({ _id: g.id }, { $set: { memberCount } });
  if (missing.length > 0) await c.groups.updateOne({ _id: g.id }, { $push: { panels: { $each: missing } } as never });
  return { created: false, panels: missing.length, members };
}
