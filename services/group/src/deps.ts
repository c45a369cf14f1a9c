import type { AppContext, AuditLog } from '@im/sdk';
import type { MembershipCache } from './membership-cache.ts';
import type { GroupRoomIndex } from './room-index.ts';
import type { GroupStore } from './store/group-store.ts';
import type { HandlerModels } from './store/reads.ts';

/** The membership cache's answers; its invalidation is the store's (and the peer events') alone. */
export type MembershipReads = Omit<MembershipCache, `forget${string}`>;

export interface GroupDeps {
  app: AppContext;
  /** Groups, members and user groups read-only (their writes are the store's); the rest as they are. */
  models: HandlerModels;
  /** Every write of groups, members and user groups, with the cache entries each one drops. */
  store: GroupStore;
  membership: MembershipReads;
  audit: AuditLog;
  /** The user -> groups -> converses index connects read their rooms from. */
  rooms: GroupRoomIndex;
}

/** Most panels a group may have: they travel inside the group document. */
export const MAX_PANELS = 200;
