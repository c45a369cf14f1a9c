import type { Types } from 'mongoose';
import type { SourceChannel, SourceGroup } from '../source/types.ts';
import type { Person } from './accounts.ts';
import type { DerivedIds } from './ids.ts';

/** Where a channel of the export goes: a panel of a group, or a DM. */
export interface Destination {
  channel: SourceChannel;
  converseId: Types.ObjectId;
  /** Added to each message's number in its channel: a DM that existed before the import continues after its last seq. */
  base: number;
  group?: PlannedGroup;
  /** A DM's people. */
  memberIds?: Types.ObjectId[];
  /** Private panel: who sees it besides the owner and admins. */
  allowUserIds?: Types.ObjectId[];
}

export interface PlannedGroup {
  source: SourceGroup;
  id: Types.ObjectId;
  panels: Array<{
    _id: Types.ObjectId;
    name: string;
    type: 'text';
    converseId: Types.ObjectId;
    topic?: string;
    private?: true;
    allowUserIds?: Types.ObjectId[];
  }>;
  /** Everyone who becomes a member (owner first). */
  memberIds: Types.ObjectId[];
  /** The group's custom emoji names (those there before and those imported). */
  customEmoji: Set<string>;
}

const trimName = (name: string, fallback: string) => [...(name.trim() || fallback)].slice(0, 64).join('');

/** Whether a DM channel can be one: at least two different people. */
export const usableDm = (channel: SourceChannel): boolean => new Set(channel.memberKeys).size >= 2;

/**
 * The groups and panels an export becomes. Members of a group: its owner,
 * everyone listed in one of its channels and everyone who wrote in one
 * (people deleted at the source only as authors, never as members).
 */
export function planGroups(
  ids: DerivedIds,
  groups: readonly SourceGroup[],
  channels: readonly SourceChannel[],
  person: (key: string) => Person,
  ownerId: Types.ObjectId,
  authorsByChannel: ReadonlyMap<string, ReadonlySet<string>>,
): { planned: PlannedGroup[]; destinations: Map<string, Destination> } {
  const destinations = new Map<string, Destination>();
  const planned: PlannedGroup[] = [];
  for (const source of groups) {
    const group: PlannedGroup = {
      source,
      id: ids.id('group', source.key),
      panels: [],
      memberIds: [ownerId],
      customEmoji: new Set(),
    };
    const members = new Map<string, Types.ObjectId>([[ownerId.toHexString(), ownerId]]);
    const addMember = (key: string) => {
      const p = person(key);
      if (!p.deleted) members.set(p.id.toHexString(), p.id);
    };
    for (const channel of channels.filter((c) => c.groupKey === source.key && c.kind !== 'dm')) {
      const converseId = ids.id('converse', channel.key);
      channel.memberKeys.forEach(addMember);
      authorsByChannel.get(channel.key)?.forEach(addMember);
      const allowUserIds =
        channel.kind === 'private'
          ? [...new Map(channel.memberKeys.map((k) => [person(k).id.toHexString(), person(k).id])).values()]
          : undefined;
      group.panels.push({
        _id: ids.id('panel', channel.key),
        name: trimName(channel.name, 'channel'),
        type: 'text',
        converseId,
        ...(channel.topic?.trim() ? { topic: [...channel.topic.trim()].slice(0, 250).join('') } : {}),
        ...(allowUserIds ? { private: true as const, allowUserIds } : {}),
      });
      destinations.set(channel.key, {
        channel,
        converseId,
        base: 0,
        group,
        ...(allowUserIds ? { allowUserIds } : {}),
      });
    }
    group.memberIds = [...members.values()];
    planned.push(group);
  }
  return { planned, destinations };
}
