import { EVENTS, type EventContext } from '@im/sdk';
import type { CallDeps } from './deps.ts';

/**
 * Nobody stays in a call they may no longer join: a member who leaves (or
 * is removed from) a group is taken out of its calls, a deactivated user out
 * of every call, and a deleted panel's or group's calls end. LiveKit's
 * webhooks then update the calls as for anyone leaving.
 */
export const removalEvents = ({ app, store, livekit }: CallDeps) => {
  const warn = (what: string) => (err: unknown) => app.logger.warn({ err }, `calls: could not ${what}`);
  const takeOut = async (userId: string, converseIds?: string[]) => {
    if (!livekit) return;
    for (const converseId of await store.callsOf(userId, converseIds))
      await livekit.removeParticipant(converseId, userId);
  };
  const end = async (converseIds: string[]) => {
    if (!livekit) return;
    for (const converseId of converseIds) if (await store.get(converseId)) await livekit.endRoom(converseId);
  };
  return {
    [EVENTS.memberLeft]: (ctx: EventContext<'group.member.left'>) =>
      takeOut(ctx.params.userId, ctx.params.converseIds).catch(warn('take a former member out of a call')),
    [EVENTS.userDeactivated]: (ctx: EventContext<'user.deactivated'>) =>
      takeOut(ctx.params.userId).catch(warn('take a deactivated user out of calls')),
    [EVENTS.panelDeleted]: (ctx: EventContext<'group.panel.deleted'>) =>
      end([ctx.params.converseId]).catch(warn("end a deleted panel's call")),
    [EVENTS.groupDeleted]: (ctx: EventContext<'group.deleted'>) =>
      end(ctx.params.converseIds).catch(warn("end a deleted group's calls")),
  };
};
