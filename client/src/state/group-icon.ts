import type { Group } from '@im/protocol';
import { ApiRequestError, networkError } from '../api/errors.ts';
import { http, path } from '../api/http.ts';
import { putGroup } from './groups.ts';
import { getState } from './store.ts';

/** Who may change a group's icon: holders of `manageGroup` (owner and admins). */
export const mayManageGroup = (group: Group): boolean => group.myPermissions.includes('manageGroup');

/** PUT /api/groups/:id/icon: multipart `file`; the answer is the group, with its new icon. */
export async function setGroupIcon(groupId: string, image: Blob): Promise<Group> {
  const form = new FormData();
  form.append('file', image, 'icon');
  const token = http.getToken();
  let res: Response;
  try {
    res = await fetch(path`/api/groups/${groupId}/icon`, {
      method: 'PUT',
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      body: form,
      // Cancelled when the session ends: its answer must not land in the next account's groups.
      signal: http.sessionSignal() ?? null,
    });
  } catch {
    throw networkError();
  }
  if (!res.ok) throw await ApiRequestError.fromResponse(res);
  const group = (await res.json()) as Group;
  putGroup(group);
  return group;
}

/** DELETE /api/groups/:id/icon: the group shows its initials again. */
export async function removeGroupIcon(groupId: string): Promise<void> {
  await http.delete(path`/api/groups/${groupId}/icon`);
  const held = getState().groups[groupId];
  if (held?.icon) {
    const { icon: _removed, ...group } = held;
    putGroup(group);
  }
}
