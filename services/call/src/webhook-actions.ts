import { announce, call, EVENTS, OBJECT_ID, type Params, type Ctx, defineActions, unavailable } from '@im/sdk';
import { closeCall, connectionLeft, tellCall } from './call-news.ts';
import type { WebhookEvent } from 'livekit-server-sdk';
import type { CallDeps } from './deps.ts';
import { publishedSources } from './livekit.ts';
import { holdsCalls } from './call-actions.ts';
import { callParams } from './params.ts';

/**
 * LiveKit's webhooks keep who is in which call: joins, leaves and tracks
 * update the converse's call, and every change goes to its members as
 * `call:updated`. A DM call's start rings the other member; its end is
 * recorded in the DM (missed, declined, or how long it lasted).
 */
export const webhookActions = ({ app, store, livekit }: CallDeps) => {
  const handle = async (ctx: Ctx<object>, event: WebhookEvent) => {
    const converseId = event.room?.name ?? '';
    // Rooms this platform did not make (another application on the same LiveKit): not ours.
    if (!OBJECT_ID.test(converseId)) return;
    const participant = event.participant;
    switch (event.event) {
      case 'participant_joined':
      case 'track_published':
      case 'track_unpublished': {
        if (!participant || !OBJECT_ID.test(participant.identity)) return;
        const userId = participant.identity;
        const access = await call(ctx, 'chat.access', { converseId, userId });
        if (!access || !holdsCalls(access)) {
          // Their token outlived their membership: out of the call.
          await livekit?.removeParticipant(converseId, userId);
          return;
        }
        const home = access.kind === 'dm' ? { memberIds: access.memberIds } : { groupId: access.groupId };
        if (event.event === 'participant_joined') {
          // A call nobody is left in is being closed (its record written, its
          // removal next): a join now starts a new call, which rings, rather
          // than reviving the old one.
          const current = await store.get(converseId);
          if (current && current.participants.length === 0) await closeCall(ctx, store, current, true);
        }
        const { call: doc, started } = await store.present(
          converseId,
          {
            userId,
            sid: participant.sid,
            joinedAt: new Date(Number(participant.joinedAtMs) || Number(participant.joinedAt) * 1000 || Date.now()),
            ...publishedSources(participant, event.event, event.track),
          },
          home,
        );
        tellCall(ctx, converseId, doc, home.memberIds);
        if (started && home.memberIds)
          announce(ctx, EVENTS.callRinging, {
            converseId,
            callerId: userId,
            startedAt: doc.startedAt.toISOString(),
            userIds: home.memberIds.filter((id) => id !== userId),
          });
        return;
      }
      case 'participant_left': {
        if (participant) await connectionLeft(ctx, store, converseId, participant.sid);
        return;
      }
      case 'room_finished': {
        const doc = await store.get(converseId);
        if (doc) await closeCall(ctx, store, doc, false);
        return;
      }
      default:
    }
  };

  return defineActions('call', {
    webhook: {
      params: callParams.webhook,
      rateLimit: 'call-webhook',
      async handler(ctx: Ctx<Params<typeof callParams.webhook>>): Promise<void> {
        if (!livekit) throw unavailable('Voice and video are off on this server');
        const event = await livekit.verify(ctx.params.body, ctx.params.authorization);
        app.logger.debug({ event: event.event, room: event.room?.name }, 'LiveKit webhook');
        await handle(ctx, event);
      },
    },
  });
};
