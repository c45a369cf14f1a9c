import { EVENTS, type EventContext, type ServiceEvents } from '@im/sdk';
import type { MembershipCache } from '../membership-cache.ts';

/**
 * Every group node drops its own cached entries when any node changes
 * membership (the writing node's store already dropped the shared ones).
 */
export function peerForgets(cache: MembershipCache) {
  const forgetMember = (ctx: EventContext<'group.member.joined' | 'group.member.left' | 'group.member.updated'>) =>
    cache.forgetMember(ctx.params.groupId, ctx.params.userId);
  return {
    [EVENTS.memberJoined]: async (ctx) => {
      await forgetMember(ctx);
      // The owner joins once, as the group is made: its panels' converses may have been asked about before.
      if (ctx.params.role === 'owner') await cache.forgetConverses(ctx.params.converseIds);
    },
    [EVENTS.memberLeft]: forgetMember,
    [EVENTS.memberUpdated]: forgetMember,
    [EVENTS.panelCreated]: async (ctx) => {
      await cache.forgetConverses([ctx.params.panel.converseId]);
      await cache.forgetRules(ctx.params.groupId);
    },
    [EVENTS.panelUpdated]: async (ctx) => {
      await cache.forgetConverses([ctx.params.panel.converseId]);
      await cache.forgetRules(ctx.params.groupId);
    },
    [EVENTS.panelDeleted]: async (ctx) => {
      await cache.forgetConverses([ctx.params.converseId]);
      await cache.forgetRules(ctx.params.groupId);
    },
    [EVENTS.rolesUpdated]: (ctx) => cache.forgetRules(ctx.params.groupId),
    [EVENTS.userGroupsUpdated]: (ctx) => cache.forgetUserGroups(ctx.params.groupId),
    [EVENTS.groupDeleted]: async (ctx) => {
      await cache.forgetConverses(ctx.params.converseIds);
      await cache.forgetRules(ctx.params.groupId);
      await cache.forgetUserGroups(ctx.params.groupId);
    },
  } satisfies ServiceEvents;
}
