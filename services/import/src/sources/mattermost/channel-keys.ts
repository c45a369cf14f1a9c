import { usernameKey } from './records.ts';

/** A team channel's key: channel names are unique within their team only. */
export const teamChannelKey = (team: string, channel: string): string => `${team}/${channel}`;

/** A DM's people: usernames, lower case, each once, sorted (the same conversation whatever order a line lists them in). */
export const directMembers = (names: unknown[]): string[] =>
  [...new Set(names.map(usernameKey).filter((n): n is string => n !== undefined))].sort();

/** A DM's key from its sorted members (`,` cannot be in a username nor in a team name). */
export const directChannelKey = (members: string[]): string => `dm:${members.join(',')}`;
