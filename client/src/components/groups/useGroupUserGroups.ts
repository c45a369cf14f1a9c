import type { UserGroup } from '@im/protocol';
import { useEffect } from 'react';
import { ensureUserGroups, useUserGroups } from '../../state/user-groups.ts';

const NONE: UserGroup[] = [];

/** A group's user groups (loaded once when first shown; `usergroups:updated` keeps them). */
export function useGroupUserGroups(groupId: string | undefined): UserGroup[] {
  const list = useUserGroups((s) => (groupId ? s.byGroup[groupId] : undefined));
  useEffect(() => {
    if (groupId) ensureUserGroups(groupId);
  }, [groupId]);
  return list ?? NONE;
}
