import type { Member, PublicUser } from '@im/protocol';
import type { MemberDoc } from './models.ts';
import { activeMute } from './views.ts';

/** A member as the API shows it: the user, role, custom roles, join time, and a mute that still runs. */
export const toMemberView = (m: MemberDoc, user: PublicUser): Member => {
  const mutedUntil = activeMute(m);
  return {
    user,
    role: m.role,
    roleIds: (m.roleIds ?? []).map((id) => id.toHexString()),
    joinedAt: m.joinedAt.toISOString(),
    ...(mutedUntil ? { mutedUntil } : {}),
  };
};
