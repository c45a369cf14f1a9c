import type { Role } from '@im/protocol';
import { useEffect } from 'react';
import { nameColor, rolesOf } from '../../../state/permissions.ts';
import { ensureRoles, useRoles } from '../../../state/roles.ts';
import { useStore } from '../../../state/store.ts';

const NONE: Role[] = [];
const NO_IDS: string[] = [];

/** A group's roles, highest first (loaded once when first shown; `roles:updated` keeps them). */
export function useGroupRoles(groupId: string | undefined): Role[] {
  const roles = useRoles((s) => (groupId ? s.byGroup[groupId] : undefined));
  useEffect(() => {
    if (groupId) ensureRoles(groupId);
  }, [groupId]);
  return roles ?? NONE;
}

/** A member's custom roles in a group (highest first) and the colour their name takes, from the loaded member list. */
export function useMemberRoles(groupId: string | undefined, userId: string): { roles: Role[]; color?: string } {
  const roles = useGroupRoles(groupId);
  const roleIds = useStore((s) =>
    groupId ? (s.members[groupId]?.items.find((m) => m.user.id === userId)?.roleIds ?? NO_IDS) : NO_IDS,
  );
  return { roles: rolesOf(roleIds, roles), color: nameColor(roleIds, roles) };
}
