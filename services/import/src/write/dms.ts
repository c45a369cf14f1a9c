import type { Types } from 'mongoose';
import type { SourceChannel } from '../source/types.ts';
import type { Person } from './accounts.ts';
import type { ImportCollections } from './collections.ts';
import type { DerivedIds } from './ids.ts';
import type { Numbering } from './numbering.ts';
import type { Destination } from './plan.ts';

/**
 * Direct and group direct conversations become DMs: one converse per set of
 * people (`dmKey`, the sorted ids), as the chat service keeps them. People
 * who already have a DM here get the history in it, numbered after what it
 * holds; a DM made by an earlier run of this import is simply found again.
 * Answers the DMs' converse ids.
 */
export async function planDms(
  c: ImportCollections,
  ids: DerivedIds,
  channels: readonly SourceChannel[],
  person: (key: string) => Person,
  numbering: Numbering,
  destinations: Map<string, Destination>,
): Promise<Types.ObjectId[]> {
  const converseIds: Types.ObjectId[] = [];
  for (const channel of channels) {
    const members = [...new Map(channel.memberKeys.map((k) => [person(k).id.toHexString(), person(k).id])).values()];
    if (members.length < 2) continue;
    members.sort((a, b) => a.toHexString().localeCompare(b.toHexString()));
    const dmKey = members.map((id) => id.toHexString()).join(':');
    const own = ids.id('converse', channel.key);
    const newest = numbering.newest.get(channel.key);
    const createdAt = newest !== undefined ? new Date(newest) : new Date();
    await c.converses.updateOne(
      { dmKey },
      { $setOnInsert: { _id: own, lastSeq: 0, type: 'dm', memberIds: members, dmKey, createdAt } },
      { upsert: true },
    );
    const dm = await c.converses.findOne({ dmKey }, { projection: { _id: 1, lastSeq: 1 } });
    const converseId = dm!._id as Types.ObjectId;
    // A DM that was there before: the imported messages follow its own.
    const base = converseId.equals(own) ? 0 : Number(dm!.lastSeq ?? 0);
    destinations.set(channel.key, { channel, converseId, base, memberIds: members });
    converseIds.push(converseId);
  }
  return converseIds;
}
