import type { SourceUser } from '../../source/types.ts';
import { teamChannelKey } from './channel-keys.ts';
import { millis, optional, records, text, usernameKey, type MattermostRecord } from './records.ts';

/**
 * A `user` or `bot` line as a person, known by username. The display name
 * is the full name, else the nickname (a bot's is its `display_name`).
 */
export function readPerson(r: MattermostRecord, bot: boolean): SourceUser | undefined {
  const key = usernameKey(r.username);
  if (!key) return undefined;
  const fullName = [text(r.first_name), text(r.last_name)].filter(Boolean).join(' ').trim();
  const displayName = (bot ? text(r.display_name) : undefined) ?? (fullName || undefined) ?? text(r.nickname);
  return {
    key,
    username: key,
    ...optional('displayName', displayName?.trim()),
    ...optional('email', text(r.email)?.trim()),
    ...(millis(r.delete_at) ? { deleted: true } : {}),
    ...(bot ? { bot: true } : {}),
  };
}

/** The team channels a user line lists the person in (`teams[].channels[].name`). */
export function channelMemberships(r: MattermostRecord): string[] {
  const keys: string[] = [];
  for (const team of records(r.teams)) {
    const teamName = text(team.name)?.trim();
    if (!teamName) continue;
    for (const channel of records(team.channels)) {
      const name = text(channel.name)?.trim();
      if (name) keys.push(teamChannelKey(teamName, name));
    }
  }
  return [...new Set(keys)];
}
