import type { Group } from '@im/protocol';
import { http } from '../api/http.ts';
import { putGroup } from './groups.ts';
import { getState } from './store.ts';
import { api, apiPath, type ResponseOf } from '../api/api.ts';

/** Who may change a group's icon: holders of `manageGroup` (owner and admins). */
export const mayManageGroup = (group: Group): boolean => group.myPermissions.includes('manageGroup');

/** PUT /api/groups/:id/icon: multipart `file`; the answer is the group, with its new icon. */
export async function setGroupIcon(groupId: string, image: Blob): Promise<Group> {
  const form = new FormData();
  form.append('file', image, 'icon');
  const group = await http.put<ResponseOf<'group.uploadIcon'>>(apiPath('group.uploadIcon', { groupId }), form);
  putGroup(group);
  return group;
}

/** DELETE /api/groups/:id/icon: the group shows its initials again. */
export async function removeGroupIcon(groupId: string): Promise<void> {
  await api.call('group.removeIcon', { groupId });
  const held = getState().groups[groupId];
  if (held?.icon) {
    const { icon: _removed, ...group } = held;
    putGroup(group);
  }
}
