import { EVENTS, type EventName, type EventPayloads } from '@im/sdk';
import type { Context } from 'moleculer';
import type { Histogram } from 'prom-client';
import { converseRoom, groupRoom, userRoom } from './rooms.ts';
import type { ImServer } from './socket-server.ts';

export interface FanoutOptions {
  /** PRESENCE_GROUP_LIMIT: groups up to this size hear their members come and go. */
  presenceGroupLimit: number;
}

type FanoutHandler<E extends EventName> = (io: ImServer, payload: EventPayloads[E], opts: FanoutOptions) => void;

/** DM events name their two members: make sure their sockets are in the DM's room. */
const dmJoin = (io: ImServer, converseId: string, memberIds?: string[]) => {
  if (memberIds) io.in(memberIds.map(userRoom)).socketsJoin(converseRoom(converseId));
};

/**
 * Changes which groups hear of a user's comings and goings, on this node's
 * sockets of that user (as if the group had been found at connect).
 */
function retellPresence(io: ImServer, userId: string, change: (groupIds: string[]) => string[]): void {
  for (const id of io.sockets.adapter.rooms.get(userRoom(userId)) ?? []) {
    const socket = io.sockets.sockets.get(id);
    if (socket?.data.presenceGroupIds) socket.data.presenceGroupIds = change(socket.data.presenceGroupIds);
  }
}

/**
 * Service events -> this node's sockets, one handler per event, each typed
 * by what its event carries (EventPayloads) and by what clients receive
 * (ServerToClientEvents). Every gateway node receives every event (they are
 * broadcast) and emits to its own sockets in the room; a room emit encodes
 * the packet once for all its sockets. Membership events move this node's
 * sockets between rooms, so delivery follows membership without
 * reconnecting. No database or broker call on this path.
 */
const FANOUT: { [E in EventName]?: FanoutHandler<E> } = {
  [EVENTS.messageCreated]: (io, p) => {
    dmJoin(io, p.message.converseId, p.memberIds);
    io.to(converseRoom(p.message.converseId)).emit('message:new', p.message);
  },
  [EVENTS.messageUpdated]: (io, p) => {
    dmJoin(io, p.message.converseId, p.memberIds);
    io.to(converseRoom(p.message.converseId)).emit('message:updated', p.message);
  },
  [EVENTS.messageDeleted]: (io, { converseId, messageId, seq, memberIds }) => {
    dmJoin(io, converseId, memberIds);
    io.to(converseRoom(converseId)).emit('message:deleted', { converseId, messageId, seq });
  },
  [EVENTS.reactionUpdated]: (io, { converseId, messageId, emoji, userId, added, counts }) => {
    io.to(converseRoom(converseId)).emit('reaction:updated', { converseId, messageId, emoji, userId, added, counts });
  },
  // Only the person who ran the command, on each of their devices in that converse.
  [EVENTS.ephemeral]: (io, { userId, message }) => {
    io.to(userRoom(userId)).emit('message:ephemeral', message);
  },
  [EVENTS.converseRead]: (io, { converseId, userId, readSeq }) => {
    io.to(userRoom(userId)).emit('converse:read', { converseId, readSeq });
  },
  // A read receipt: everyone in the converse sees how far this member read.
  [EVENTS.readUpdated]: (io, { converseId, userId, readSeq, memberIds }) => {
    dmJoin(io, converseId, memberIds);
    io.to(converseRoom(converseId)).emit('read:updated', { converseId, userId, readSeq });
  },
  [EVENTS.dmOpened]: (io, { converse }) => {
    dmJoin(io, converse.id, converse.memberIds);
    io.to(converse.memberIds.map(userRoom)).emit('dm:opened', converse);
  },
  [EVENTS.groupUpdated]: (io, { group }) => {
    io.to(groupRoom(group.id)).emit('group:updated', group);
  },
  [EVENTS.groupDeleted]: (io, { groupId, converseIds }) => {
    const rooms = [groupRoom(groupId), ...converseIds.map(converseRoom)];
    io.to(groupRoom(groupId)).emit('group:deleted', { groupId });
    io.in(groupRoom(groupId)).socketsLeave(rooms);
  },
  [EVENTS.memberJoined]: (io, { groupId, userId, role, converseIds, memberCount }, opts) => {
    io.in(userRoom(userId)).socketsJoin([groupRoom(groupId), ...converseIds.map(converseRoom)]);
    if (memberCount <= opts.presenceGroupLimit)
      retellPresence(io, userId, (ids) => (ids.includes(groupId) ? ids : [...ids, groupId]));
    io.to(groupRoom(groupId)).emit('member:joined', { groupId, userId, role });
  },
  [EVENTS.memberLeft]: (io, { groupId, userId, converseIds }) => {
    // Tell the group (the leaver included), then stop delivering to the leaver at once.
    io.to([groupRoom(groupId), userRoom(userId)]).emit('member:left', { groupId, userId });
    io.in(userRoom(userId)).socketsLeave([groupRoom(groupId), ...converseIds.map(converseRoom)]);
    retellPresence(io, userId, (ids) => ids.filter((id) => id !== groupId));
  },
  [EVENTS.memberUpdated]: (io, { groupId, userId, role, mutedUntil }) => {
    io.to(groupRoom(groupId)).emit('member:updated', { groupId, userId, role, ...(mutedUntil ? { mutedUntil } : {}) });
  },
  [EVENTS.panelCreated]: (io, { groupId, panel }) => {
    io.in(groupRoom(groupId)).socketsJoin(converseRoom(panel.converseId));
    io.to(groupRoom(groupId)).emit('panel:created', { groupId, panel });
  },
  [EVENTS.panelUpdated]: (io, { groupId, panel }) => {
    io.to(groupRoom(groupId)).emit('panel:updated', { groupId, panel });
  },
  [EVENTS.panelDeleted]: (io, { groupId, panelId, converseId }) => {
    io.to(groupRoom(groupId)).emit('panel:deleted', { groupId, panelId, converseId });
    io.in(converseRoom(converseId)).socketsLeave(converseRoom(converseId));
  },
  [EVENTS.typing]: (io, { converseId, userId }) => {
    io.to(converseRoom(converseId)).except(userRoom(userId)).emit('typing', { converseId, userId });
  },
  [EVENTS.emojiChanged]: (io, { groupId }) => {
    io.to(groupRoom(groupId)).emit('emoji:changed', { groupId });
  },
  [EVENTS.userUpdated]: (io, { user, groupIds, converseIds }) => {
    io.to([userRoom(user.id), ...groupIds.map(groupRoom), ...converseIds.map(converseRoom)]).emit('user:updated', user);
  },
  [EVENTS.presence]: (io, { userId, online, groupIds }) => {
    if (groupIds.length > 0) io.to(groupIds.map(groupRoom)).emit('presence', { userId, online });
  },
};

/**
 * The gateway's event subscriptions: each fan-out handler bound to this
 * node's socket server, timed when `timing` is given (a room emit writes to
 * every local socket before it returns: its duration is this node's fan-out
 * time, first write to last).
 */
export function fanoutHandlers(
  io: () => ImServer | undefined,
  opts: FanoutOptions,
  timing?: Histogram<'event'>,
): Record<string, (ctx: Context<never>) => void> {
  return Object.fromEntries(
    Object.entries(FANOUT).map(([event, handler]) => {
      const fanout = handler as FanoutHandler<EventName>;
      return [
        event,
        (ctx: Context<never>) => {
          const server = io();
          if (!server) return;
          const started = timing ? performance.now() : 0;
          fanout(server, ctx.params, opts);
          timing?.observe({ event }, (performance.now() - started) / 1000);
        },
      ];
    }),
  );
}
