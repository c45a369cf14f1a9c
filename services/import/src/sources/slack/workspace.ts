import { basename } from 'node:path';
import type { SlackChannel, SlackUser } from './export-shapes.ts';

/**
 * The workspace an export comes from. Its origin is the team id (`T…`, on
 * every user and on channels of newer exports); an export without one is
 * known by its default channel's id (or its oldest channel's), which every
 * export of that workspace shares and no other workspace has. The
 * workspace's name is in no file of the export, but Slack names the download
 * `<Workspace> Slack export <dates>.zip`: the name is the file or folder name
 * with that tail cut off (the last resort for the origin too).
 */
export interface Workspace {
  origin: string;
  name: string;
}

const EXPORT_TAIL = /[\s_-]+slack[\s_-]+export\b.*$/i;

/** `channels`: the public ones (`channels.json`), which every kind of export has. */
export function workspaceOf(path: string, users: readonly SlackUser[], channels: readonly SlackChannel[]): Workspace {
  const name = nameFromPath(path);
  const teamId = users.find((u) => u.team_id)?.team_id ?? channels.find((c) => c.context_team_id)?.context_team_id;
  if (teamId) return { origin: teamId, name };
  const channel = defaultChannel(channels);
  return { origin: channel ? `channel:${channel}` : name, name };
}

/** The id of the default channel, else of the oldest one (ties by id). */
function defaultChannel(channels: readonly SlackChannel[]): string | undefined {
  const general = channels.find((c) => c.is_general && c.id);
  if (general) return general.id;
  const byAge = channels
    .filter((c) => c.id)
    .sort((a, b) => (a.created ?? Infinity) - (b.created ?? Infinity) || a.id!.localeCompare(b.id!));
  return byAge[0]?.id;
}

function nameFromPath(path: string): string {
  const file = basename(path.replace(/[/\\]+$/, '')).replace(/\.zip$/i, '');
  return file.replace(EXPORT_TAIL, '').trim() || file || 'Slack';
}
