import type { AppContext, AuditLog } from '@im/sdk';
import type { MembershipCache } from './membership-cache.ts';
import type { GroupModels } from './models.ts';
import type { GroupRoomIndex } from './room-index.ts';

export interface GroupDeps {
  app: AppContext;
  models: GroupModels;
  membership: MembershipCache;
  audit: AuditLog;
  /** The user -> groups -> converses index connects read their rooms from. */
  rooms: GroupRoomIndex;
}

/** Most panels a group may have: they travel inside the group document. */
export const MAX_PANELS = 200;
