import type { SkipCounter } from '../../source/skip-counter.ts';
import type { SourceChannel, SourceGroup, SourceUser } from '../../source/types.ts';
import { directChannelKey, directMembers, teamChannelKey } from './channel-keys.ts';
import type { UnreadableLine } from './export-lines.ts';
import { channelMemberships, readPerson } from './people.ts';
import type { ExportLine } from './records.ts';
import { optional, records, SETTINGS_LINE_TYPES, text, texts, type MattermostRecord } from './records.ts';

/** A custom emoji as its line gives it: the image is a path inside the export. */
export interface EmojiEntry {
  name: string;
  image?: string;
}

/**
 * Everything but the posts, from one pass over the whole export: users,
 * bots and emoji may come after the channels and posts in a file that was
 * not written by Mattermost itself, and a channel's members are only known
 * once every user line has been read. Small next to the posts (one entry
 * per team, channel, person, DM and emoji).
 */
export interface ExportDirectory {
  groups: SourceGroup[];
  users: SourceUser[];
  /** Team channels and DMs by key, in the order the export first names them. */
  channels: Map<string, SourceChannel>;
  emoji: EmojiEntry[];
}

interface PendingChannel {
  team: string;
  name: string;
  record: MattermostRecord;
}

export async function scanExport(
  lines: AsyncIterable<ExportLine | UnreadableLine>,
  skipped: SkipCounter,
): Promise<ExportDirectory> {
  const groups = new Map<string, SourceGroup>();
  const pending = new Map<string, PendingChannel>();
  const users = new Map<string, SourceUser>();
  const memberships = new Map<string, string[]>();
  const directs = new Map<string, SourceChannel>();
  const emoji = new Map<string, EmojiEntry>();

  const addDirect = (members: string[]): boolean => {
    if (members.length < 2) return false;
    const key = directChannelKey(members);
    if (!directs.has(key)) directs.set(key, { key, kind: 'dm', name: members.join(', '), memberKeys: members });
    return true;
  };

  for await (const line of lines) {
    if ('unreadable' in line) {
      skipped.add(line.unreadable);
      continue;
    }
    const r = line.record;
    switch (line.type) {
      case 'team': {
        const key = text(r.name)?.trim();
        if (!key) skipped.add('team without a name');
        else
          groups.set(key, {
            key,
            name: text(r.display_name) ?? key,
            ...optional('description', text(r.description)),
          });
        break;
      }
      case 'channel': {
        const team = text(r.team)?.trim();
        const name = text(r.name)?.trim();
        if (!team || !name) skipped.add('channel without a team or a name');
        else pending.set(teamChannelKey(team, name), { team, name, record: r });
        break;
      }
      case 'user':
      case 'bot': {
        const user = readPerson(r, line.type === 'bot');
        if (!user) {
          skipped.add('person without a username');
          break;
        }
        users.set(user.key, user);
        if (line.type === 'user') memberships.set(user.key, channelMemberships(r));
        break;
      }
      case 'direct_channel': {
        const members = directMembers([...texts(r.members), ...records(r.participants).map((p) => p.username)]);
        if (!addDirect(members)) skipped.add('direct messages with oneself');
        break;
      }
      case 'direct_post':
        // A DM whose posts are there but whose `direct_channel` line is not is still a DM.
        addDirect(directMembers(texts(r.channel_members)));
        break;
      case 'emoji': {
        const name = text(r.name)?.trim().replace(/^:|:$/g, '');
        if (!name) skipped.add('custom emoji without a name');
        else emoji.set(name, { name, ...optional('image', text(r.image)) });
        break;
      }
      case 'post':
        break;
      default:
        if (SETTINGS_LINE_TYPES.has(line.type)) {
          if (line.type !== 'version') skipped.add('permission scheme or role');
        } else skipped.add('line of an unknown type');
    }
  }

  const channels = teamChannels(pending, groups, memberships, skipped);
  for (const [key, dm] of directs) channels.set(key, dm);
  return { groups: [...groups.values()], users: [...users.values()], channels, emoji: [...emoji.values()] };
}

/** The `channel` lines that can be placed in a listed team, with the people whose user lines list them. */
function teamChannels(
  pending: ReadonlyMap<string, PendingChannel>,
  groups: ReadonlyMap<string, SourceGroup>,
  memberships: ReadonlyMap<string, string[]>,
  skipped: SkipCounter,
): Map<string, SourceChannel> {
  const channels = new Map<string, SourceChannel>();
  for (const [key, { team, name, record }] of pending) {
    const kind = record.type === 'O' ? 'public' : record.type === 'P' ? 'private' : undefined;
    if (!groups.has(team)) skipped.add('channel of a team the export does not list');
    else if (!kind) skipped.add('channel of an unknown type');
    else {
      const topic = text(record.header) ?? text(record.purpose);
      channels.set(key, {
        key,
        groupKey: team,
        kind,
        name: text(record.display_name) ?? name,
        ...optional('topic', topic),
        memberKeys: [],
      });
    }
  }
  for (const [userKey, channelKeys] of memberships) {
    for (const key of channelKeys) channels.get(key)?.memberKeys.push(userKey);
  }
  return channels;
}
