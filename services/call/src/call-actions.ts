import type { CallJoin, CallRinging, CallState, ConverseAccess } from '@im/protocol';
import { announce, call, callerId, EVENTS, ImError, type Params, type Ctx, notFound, invalid, conflict } from '@im/sdk';
import { toParticipants } from './call-store.ts';
import type { CallDeps } from './deps.ts';
import type { LiveKit } from './livekit.ts';
import { callParams } from './params.ts';

/** Whether a converse can hold a call: a DM, or a voice panel. */
export const holdsCalls = (access: ConverseAccess): boolean => access.kind === 'dm' || access.panelType === 'voice';

/** The caller's access to a converse that can hold a call (a voice panel or a DM); 404 when not theirs. */
export async function requireCallable(ctx: Ctx<object>, converseId: string, userId: string): Promise<ConverseAccess> {
  const access = await call(ctx, 'chat.access', { converseId, userId });
  if (!access) throw notFound('converse');
  if (!holdsCalls(access)) throw invalid('Calls happen in voice panels and DMs; this is a text panel');
  return access;
}

/**
 * Who may speak: everyone in a DM; in a voice panel everyone but a muted
 * member, and only owners and admins where the panel is for admins to post
 * (a stage: members listen).
 */
export function maySpeak(access: ConverseAccess, now = Date.now()): boolean {
  if (access.kind === 'dm') return true;
  if (access.mutedUntil !== undefined && access.mutedUntil > now) return false;
  return access.postingRole !== 'admin' || access.role !== 'member';
}

const requireLiveKit = (livekit: LiveKit | undefined): LiveKit => {
  if (!livekit) throw new ImError('IM_ERR_SERVICE_UNAVAILABLE', 'Voice and video are not available on this server');
  return livekit;
};

export const callActions = ({ store, livekit }: CallDeps) => ({
  /** A token for the converse's LiveKit room (named by the converse's id). */
  join: {
    params: callParams.join,
    rateLimit: 'call-join' as const,
    async handler(ctx: Ctx<Params<typeof callParams.join>>): Promise<CallJoin> {
      const userId = callerId(ctx);
      const { converseId } = ctx.params;
      const access = await requireCallable(ctx, converseId, userId);
      const server = requireLiveKit(livekit);
      const token = await server.token(userId, converseId, maySpeak(access));
      return { url: server.settings.publicUrl, token, room: converseId };
    },
  },

  state: {
    params: callParams.state,
    async handler(ctx: Ctx<Params<typeof callParams.state>>): Promise<CallState> {
      const { converseId } = ctx.params;
      await requireCallable(ctx, converseId, callerId(ctx));
      return { converseId, participants: toParticipants(await store.get(converseId)) };
    },
  },

  ringing: {
    params: callParams.ringing,
    async handler(ctx: Ctx<Params<typeof callParams.ringing>>): Promise<CallRinging[]> {
      const calls = await store.ringingFor(callerId(ctx));
      return calls.map((c) => ({
        converseId: c._id.toHexString(),
        callerId: c.callerId,
        startedAt: c.startedAt.toISOString(),
      }));
    },
  },

  /** Declining a DM call ends it (a DM call is between its two members). */
  decline: {
    params: callParams.decline,
    rateLimit: 'call-join' as const,
    async handler(ctx: Ctx<Params<typeof callParams.decline>>): Promise<void> {
      const userId = callerId(ctx);
      const { converseId } = ctx.params;
      const access = await requireCallable(ctx, converseId, userId);
      if (access.kind !== 'dm') throw invalid('Only a DM call can be declined');
      if (!(await store.declined(converseId, userId))) throw conflict('There is no call to decline in this DM');
      announce(ctx, EVENTS.callDeclined, { converseId, userId, memberIds: access.memberIds });
      await requireLiveKit(livekit).endRoom(converseId);
    },
  },
});
