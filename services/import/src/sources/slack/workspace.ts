import { basename } from 'node:path';
import type { SlackChannel, SlackUser } from './export-shapes.ts';

/**
 * The workspace an export comes from. Its team id (`T…`, on every user and
 * on channels of newer exports) is the origin when the export has one.
 * The workspace's name is in no file of the export, but Slack names the
 * download `<Workspace> Slack export <dates>.zip`, so the name comes from
 * the file or folder name with that tail cut off; that name is also the
 * origin when there is no team id (the same for every date range exported).
 */
export interface Workspace {
  origin: string;
  name: string;
}

const EXPORT_TAIL = /[\s_-]+slack[\s_-]+export\b.*$/i;

export function workspaceOf(path: string, users: readonly SlackUser[], channels: readonly SlackChannel[]): Workspace {
  const name = nameFromPath(path);
  const teamId = users.find((u) => u.team_id)?.team_id ?? channels.find((c) => c.context_team_id)?.context_team_id;
  return { origin: teamId ?? name, name };
}

function nameFromPath(path: string): string {
  const file = basename(path.replace(/[/\\]+$/, '')).replace(/\.zip$/i, '');
  return file.replace(EXPORT_TAIL, '').trim() || file || 'Slack';
}
