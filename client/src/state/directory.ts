import type { DirectoryPage, Group } from '@im/protocol';
import { putGroup } from './groups.ts';
import { pageParams } from './moderation.ts';
import { navigate } from './navigation.ts';
import { api } from '../api/api.ts';

// The directory of public groups and joining one without an invite. These
// throw: the Explore view shows failures where they happened.

export const DIRECTORY_PAGE_SIZE = 20;

/** A page of public groups, largest first, whose name contains `q` (any case); no cursor: the first page. */
export function listDirectory(q: string, cursor: string | null): Promise<DirectoryPage> {
  return api.call('group.directory', {
    ...pageParams(cursor, DIRECTORY_PAGE_SIZE),
    ...(q.trim() ? { q: q.trim() } : {}),
  });
}

/**
 * Joins a public group (joining one I am in just answers it) and opens it, on
 * `converseId` when that is one of its panels, else on its first.
 */
export async function joinPublicGroup(groupId: string, converseId?: string): Promise<Group> {
  const group = await api.call('group.join', { groupId });
  putGroup(group);
  const panel = group.panels.find((p) => p.converseId === converseId) ?? group.panels[0];
  navigate({ name: 'group', groupId: group.id, converseId: panel?.converseId });
  return group;
}
