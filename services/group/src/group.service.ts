import { departureActions } from './departure-actions.ts';
import {
  AuditLog,
  createCache,
  createSetIndexStore,
  EVENTS,
  type AppContext,
  type ServiceEvents,
  type ServiceFactory,
  defineActions,
} from '@im/sdk';
import { botMemberActions } from './bot-member-actions.ts';
import { emojiActions } from './emoji-actions.ts';
import { emojiModel } from './emoji-models.ts';
import { groupActions } from './group-actions.ts';
import { iconActions } from './icon-actions.ts';
import { importAdoptionActions } from './import-adoption.ts';
import { inviteActions } from './invite-actions.ts';
import { MAX_GROUPS_PER_USER, memberActions } from './member-actions.ts';
import { moderationActions } from './moderation-actions.ts';
import { MembershipCache } from './membership-cache.ts';
import { GroupRoomIndex } from './room-index.ts';
import { groupModels } from './models.ts';
import { GroupStore } from './store/group-store.ts';
import { peerForgets } from './store/peer-forgets.ts';
import { panelActions } from './panel-actions.ts';
import { publicActions } from './public-actions.ts';
import { rosterActions } from './roster-actions.ts';
import { roleActions } from './role-actions.ts';
import { userGroupActions } from './usergroup-actions.ts';

/** Groups, their panels, members and invites, and their moderation (bans, mutes). */
export const createGroupService: ServiceFactory = (app: AppContext) => {
  const models = groupModels(app.mongo!);
  // Per-node memory caches in a cluster without Redis can miss an invalidation
  // sent while a node was joining, so there they expire sooner.
  const ttlSeconds = app.redis || !app.config.transporter ? 300 : 30;
  const membership = new MembershipCache(createCache(app.redis, 'group:membership:'), models, ttlSeconds);
  const audit = new AuditLog(app.mongo!);
  const rooms = new GroupRoomIndex(createSetIndexStore(app, 'group-rooms'), models, app.logger, MAX_GROUPS_PER_USER);
  const store = new GroupStore(models, membership);
  const deps = { app, models, store, membership, audit, rooms };
  let stopRebuild = () => {};
  const emoji = emojiModel(app.mongo!);

  const peer = peerForgets(membership);

  return {
    name: 'group',
    async started() {
      await Promise.all([
        models.groups.createIndexes(),
        models.members.createIndexes(),
        models.userGroups.createIndexes(),
        models.invites.createIndexes(),
        models.bans.createIndexes(),
        audit.createIndexes(),
        emoji.createIndexes(),
      ]);
      // Before this node serves: a connect right after start reads the index (or, while another node rebuilds, MongoDB).
      stopRebuild = await rooms.rebuild();
    },
    stopped() {
      stopRebuild();
    },
    actions: defineActions('group', {
      ...groupActions(deps),
      ...memberActions(deps),
      ...panelActions(deps),
      ...inviteActions(deps),
      ...departureActions(deps),
      ...moderationActions(deps),
      ...publicActions(deps),
      ...botMemberActions(deps),
      ...emojiActions(deps, emoji),
      ...iconActions(deps),
      ...rosterActions(deps),
      ...roleActions(deps),
      ...userGroupActions(deps),
      ...importAdoptionActions(deps),
    }),
    events: {
      ...peer,
      [EVENTS.groupDeleted]: async (ctx) => {
        await peer[EVENTS.groupDeleted](ctx);
        // A deleted group's emoji go with it (every group node may run this: it is idempotent).
        await emoji.deleteMany({ groupId: ctx.params.groupId });
      },
    } satisfies ServiceEvents,
  };
};
