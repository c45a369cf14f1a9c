import { call } from '@im/sdk';
import type { Message, NotificationLevel } from '@im/protocol';
import type { ServiceBroker } from 'moleculer';
import { choseAll, defaultLevel, LARGE_CONVERSE_MEMBERS, levelsAmong } from './converse-levels.ts';
import type { NotificationKind, PushModels } from './models.ts';
import type { RosterCache } from './roster-cache.ts';

/** Most members an `@all` notifies (the roster's ids stop there). */
const ALL_TARGETS_MAX = 100_000;
/** Most followers of a thread told of a reply, and most members of a large converse at level `all` pushed every message. */
const FOLLOWERS_MAX = 1000;

/** Who hears of a message: by name (mentions, replies, DMs: inbox and push) and at level `all` (push only). */
export interface Recipients {
  /** userId → why they hear of it; never the author, never a member at level `none`. */
  addressed: Map<string, NotificationKind>;
  /** Members at level `all` the message does not address (push only, no inbox entry). */
  everyMessage: string[];
}

/**
 * Whom a group message mentions: those it names, and with `@all` every
 * member of the group. `@here` adds nobody: it mentions the members online
 * at the send, and only members with no socket are notified.
 */
async function mentioned(broker: ServiceBroker, message: Message): Promise<string[]> {
  if (!message.mentionsAll) return message.mentions;
  const roster = await call(broker, 'group.converseRoster', {
    converseId: message.converseId,
    maxIds: ALL_TARGETS_MAX,
  });
  return [...new Set([...message.mentions, ...(roster?.memberIds ?? [])])];
}

/** Of a thread's followers, those who still see its converse (one may have left, or lost a private panel). */
async function stillMembers(broker: ServiceBroker, converseId: string, userIds: string[]): Promise<string[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < userIds.length; i += 100) chunks.push(userIds.slice(i, i + 100));
  const answers = await Promise.all(
    chunks.map((ids) => call(broker, 'group.converseMembers', { converseId, userIds: ids })),
  );
  return chunks.flatMap((ids, i) => ids.filter((id) => answers[i]?.roles[id] !== undefined));
}

/**
 * The recipients of a message by their levels of its converse. A DM
 * addresses its other member (at `mentions` too: every DM message is for
 * them). In a group: mentions and replies in threads one follows reach
 * members at `all` and `mentions`; every other message reaches members at
 * `all` by push: in a converse under 100 members every member at `all`
 * (the default there), in a larger one those who chose `all`.
 */
export async function recipientsOf(
  broker: ServiceBroker,
  models: Pick<PushModels, 'settings' | 'levels'>,
  rosters: RosterCache,
  /** Of these users, those with a browser or device to push to (only they can hear a message by push alone). */
  reachable: (userIds: string[]) => Promise<string[]>,
  message: Message,
  memberIds: string[] | undefined,
): Promise<Recipients> {
  const author = message.authorId;
  if (memberIds) {
    const others = memberIds.filter((id) => id !== author);
    const levels = await levelsAmong(models, message.converseId, others, 'all');
    const heard = others.filter((id) => levels.get(id) !== 'none');
    // A mention in a DM is a mention: the inbox keeps it even when its reader was there.
    const kindOf = (id: string): NotificationKind => (message.mentions.includes(id) ? 'mention' : 'dm');
    return { addressed: new Map(heard.map((id) => [id, kindOf(id)])), everyMessage: [] };
  }
  const [mentions, followers, roster] = await Promise.all([
    mentioned(broker, message),
    message.threadId
      ? call(broker, 'chat.threadFollowers', { rootId: message.threadId, max: FOLLOWERS_MAX })
      : Promise.resolve([]),
    rosters.get(broker, message.converseId),
  ]);
  // A small converse's roster holds those who chose `all` already; a large one's is not read.
  const chosen = roster?.memberIds ? [] : await choseAll(models, message.converseId, FOLLOWERS_MAX);
  const kinds = new Map<string, NotificationKind>();
  for (const id of await stillMembers(broker, message.converseId, followers)) kinds.set(id, 'reply');
  for (const id of mentions) kinds.set(id, 'mention');
  const rest = new Set([...(roster?.memberIds ?? []), ...chosen]);
  for (const id of kinds.keys()) rest.delete(id);
  kinds.delete(author);
  rest.delete(author);
  // Their levels matter only if a push could reach them: most messages end here for most members.
  const pushable =
    rest.size === 0
      ? []
      : roster?.memberIds
        ? await rosters
            .pushable(message.converseId, roster.memberIds, reachable)
            .then((have) => [...rest].filter((id) => have.has(id)))
        : await reachable([...rest]);
  const fallback: NotificationLevel = defaultLevel('group', roster?.memberCount ?? LARGE_CONVERSE_MEMBERS);
  const levels = await levelsAmong(models, message.converseId, [...kinds.keys(), ...pushable], fallback);
  for (const id of kinds.keys()) if (levels.get(id) === 'none') kinds.delete(id);
  return { addressed: kinds, everyMessage: pushable.filter((id) => levels.get(id) === 'all') };
}
