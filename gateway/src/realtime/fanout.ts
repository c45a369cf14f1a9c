import type { DmConverse, GroupRole, Message, Panel, ServerToClientEvents } from '@im/protocol';
import { EVENTS } from '@im/sdk';
import type { Context } from 'moleculer';
import type { Histogram } from 'prom-client';
import { converseRoom, groupRoom, userRoom } from './rooms.ts';
import type { ImServer } from './socket-server.ts';

/** The payload a client receives for an event: service events carry at least that. */
type ClientEvent<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>[0];

type Handler<P> = (ctx: Context<P>) => void;

/**
 * Service events -> this node's sockets. Every gateway node receives every
 * event (they are broadcast) and emits to its own sockets in the room; a
 * room emit encodes the packet once for all its sockets. Membership events
 * move this node's sockets between rooms, so delivery follows membership
 * without reconnecting. No database or broker call on this path.
 */
export function fanoutHandlers(
  io: () => ImServer | undefined,
  timing?: Histogram<'event'>,
): Record<string, Handler<never>> {
  const on =
    <P>(fn: (io: ImServer, params: P) => void): Handler<P> =>
    (ctx) => {
      const server = io();
      if (server) fn(server, ctx.params);
    };

  /** DM events name their two members: make sure their sockets are in the DM's room. */
  const dmJoin = (server: ImServer, converseId: string, memberIds?: string[]) => {
    if (memberIds) server.in(memberIds.map(userRoom)).socketsJoin(converseRoom(converseId));
  };

  const handlers: Record<string, Handler<never>> = {
    [EVENTS.messageCreated]: on<{ message: Message; memberIds?: string[] }>((s, p) => {
      dmJoin(s, p.message.converseId, p.memberIds);
      s.to(converseRoom(p.message.converseId)).emit('message:new', p.message);
    }),
    [EVENTS.messageUpdated]: on<{ message: Message; memberIds?: string[] }>((s, p) => {
      dmJoin(s, p.message.converseId, p.memberIds);
      s.to(converseRoom(p.message.converseId)).emit('message:updated', p.message);
    }),
    [EVENTS.messageDeleted]: on<{ converseId: string; messageId: string; seq: number; memberIds?: string[] }>(
      (s, p) => {
        dmJoin(s, p.converseId, p.memberIds);
        s.to(converseRoom(p.converseId)).emit('message:deleted', {
          converseId: p.converseId,
          messageId: p.messageId,
          seq: p.seq,
        });
      },
    ),
    [EVENTS.reactionUpdated]: on<ClientEvent<'reaction:updated'> & { memberIds?: string[] }>((s, p) => {
      const { converseId, messageId, emoji, userId, added, counts } = p;
      s.to(converseRoom(converseId)).emit('reaction:updated', { converseId, messageId, emoji, userId, added, counts });
    }),
    [EVENTS.converseRead]: on<{ converseId: string; userId: string; readSeq: number }>((s, p) => {
      s.to(userRoom(p.userId)).emit('converse:read', { converseId: p.converseId, readSeq: p.readSeq });
    }),
    [EVENTS.dmOpened]: on<{ converse: DmConverse }>((s, p) => {
      dmJoin(s, p.converse.id, p.converse.memberIds);
      s.to(p.converse.memberIds.map(userRoom)).emit('dm:opened', p.converse);
    }),
    [EVENTS.groupUpdated]: on<{ group: { id: string } }>((s, p) => {
      s.to(groupRoom(p.group.id)).emit('group:updated', p.group as never);
    }),
    [EVENTS.groupDeleted]: on<{ groupId: string; converseIds: string[] }>((s, p) => {
      const rooms = [groupRoom(p.groupId), ...p.converseIds.map(converseRoom)];
      s.to(groupRoom(p.groupId)).emit('group:deleted', { groupId: p.groupId });
      s.in(groupRoom(p.groupId)).socketsLeave(rooms);
    }),
    [EVENTS.memberJoined]: on<{ groupId: string; userId: string; role: GroupRole; converseIds: string[] }>((s, p) => {
      s.in(userRoom(p.userId)).socketsJoin([groupRoom(p.groupId), ...p.converseIds.map(converseRoom)]);
      s.to(groupRoom(p.groupId)).emit('member:joined', { groupId: p.groupId, userId: p.userId, role: p.role });
    }),
    [EVENTS.memberLeft]: on<{ groupId: string; userId: string; converseIds: string[] }>((s, p) => {
      // Tell the group (the leaver included), then stop delivering to the leaver at once.
      s.to([groupRoom(p.groupId), userRoom(p.userId)]).emit('member:left', { groupId: p.groupId, userId: p.userId });
      s.in(userRoom(p.userId)).socketsLeave([groupRoom(p.groupId), ...p.converseIds.map(converseRoom)]);
    }),
    [EVENTS.memberUpdated]: on<{ groupId: string; userId: string; role: GroupRole }>((s, p) => {
      s.to(groupRoom(p.groupId)).emit('member:updated', p);
    }),
    [EVENTS.panelCreated]: on<{ groupId: string; panel: Panel }>((s, p) => {
      s.in(groupRoom(p.groupId)).socketsJoin(converseRoom(p.panel.converseId));
      s.to(groupRoom(p.groupId)).emit('panel:created', p);
    }),
    [EVENTS.panelUpdated]: on<{ groupId: string; panel: Panel }>((s, p) => {
      s.to(groupRoom(p.groupId)).emit('panel:updated', p);
    }),
    [EVENTS.panelDeleted]: on<{ groupId: string; panelId: string; converseId: string }>((s, p) => {
      s.to(groupRoom(p.groupId)).emit('panel:deleted', p);
      s.in(converseRoom(p.converseId)).socketsLeave(converseRoom(p.converseId));
    }),
    [EVENTS.typing]: on<{ converseId: string; userId: string }>((s, p) => {
      s.to(converseRoom(p.converseId))
        .except(userRoom(p.userId))
        .emit('typing', { converseId: p.converseId, userId: p.userId });
    }),
    [EVENTS.presence]: on<{ userId: string; online: boolean; groupIds: string[] }>((s, p) => {
      if (p.groupIds.length > 0)
        s.to(p.groupIds.map(groupRoom)).emit('presence', { userId: p.userId, online: p.online });
    }),
  } as Record<string, Handler<never>>;
  if (!timing) return handlers;
  // A room emit writes to every local socket before it returns: its duration
  // is this node's fan-out time, first write to last.
  return Object.fromEntries(
    Object.entries(handlers).map(([event, handler]) => [
      event,
      (ctx: Context<never>) => {
        const started = performance.now();
        handler(ctx);
        timing.observe({ event }, (performance.now() - started) / 1000);
      },
    ]),
  );
}
