import { call, EVENTS, type EventContext } from '@im/sdk';
import { maySpeak } from './call-actions.ts';
import type { CallDeps } from './deps.ts';

/**
 * Calls follow membership. Nobody stays in a call they may no longer join: a
 * member who leaves (or is removed from) a group is taken out of its calls,
 * a deactivated user out of every call, and a deleted panel's or group's
 * calls end (LiveKit's webhooks then update the calls as for anyone
 * leaving). A member muted in the group, or whose role changed, keeps
 * listening but may speak only as a new token would allow.
 */
export const membershipEvents = ({ app, store, livekit }: CallDeps) => {
  const warn = (what: string) => (err: unknown) => app.logger.warn({ err }, `calls: could not ${what}`);
  const takeOut = async (userId: string, converseIds?: string[]) => {
    if (!livekit) return;
    for (const converseId of await store.callsOf(userId, converseIds))
      await livekit.removeParticipant(converseId, userId);
  };
  const end = async (converseIds: string[]) => {
    if (!livekit) return;
    for (const converseId of await store.ongoing(converseIds)) await livekit.endRoom(converseId);
  };
  /** Those a private panel no longer allows leave its call (one read: most panels have none going). */
  const takeOutOfPanel = async (converseId: string, userIds: string[]) => {
    if (!livekit || userIds.length === 0) return;
    const revoked = new Set(userIds);
    const present = (await store.get(converseId))?.participants ?? [];
    for (const userId of new Set(present.map((p) => p.userId)))
      if (revoked.has(userId)) await livekit.removeParticipant(converseId, userId);
  };
  /** The user's calls in the group get the publishing right their standing gives now. */
  const reconsider = async (ctx: EventContext<'group.member.updated'>) => {
    if (!livekit) return;
    const { groupId, userId } = ctx.params;
    for (const converseId of await store.callsOf(userId, undefined, groupId)) {
      const access = await call(ctx, 'chat.access', { converseId, userId });
      if (access) await livekit.allowPublishing(converseId, userId, maySpeak(access));
    }
  };
  return {
    [EVENTS.memberUpdated]: (ctx: EventContext<'group.member.updated'>) =>
      reconsider(ctx).catch(warn("change a member's right to speak in a call")),
    [EVENTS.memberLeft]: (ctx: EventContext<'group.member.left'>) =>
      takeOut(ctx.params.userId, ctx.params.converseIds).catch(warn('take a former member out of a call')),
    [EVENTS.panelAccess]: (ctx: EventContext<'group.panel.access'>) =>
      takeOutOfPanel(ctx.params.panel.converseId, ctx.params.revokedUserIds).catch(
        warn('take those a private panel no longer allows out of its call'),
      ),
    [EVENTS.userDeactivated]: (ctx: EventContext<'user.deactivated'>) =>
      takeOut(ctx.params.userId).catch(warn('take a deactivated user out of calls')),
    [EVENTS.panelDeleted]: (ctx: EventContext<'group.panel.deleted'>) =>
      end([ctx.params.converseId]).catch(warn("end a deleted panel's call")),
    [EVENTS.groupDeleted]: (ctx: EventContext<'group.deleted'>) =>
      end(ctx.params.converseIds).catch(warn("end a deleted group's calls")),
  };
};
