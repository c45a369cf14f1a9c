import type { ServerToClientEvents } from '@im/protocol';
import { dmMembersOf, EVENTS, type EventName, type EventPayloads, type Tracing } from '@im/sdk';
import type { Context } from 'moleculer';
import type { Counter, Histogram } from 'prom-client';
import { converseRoom, groupRoom, userRoom } from './rooms.ts';
import type { RoomJournal } from './room-journal.ts';
import type { ImServer } from './socket-server.ts';

export interface FanoutOptions {
  /** PRESENCE_GROUP_LIMIT: groups up to this size hear their members come and go. */
  presenceGroupLimit: number;
  /** With tracing on, an event that came inside a trace is emitted in a span of it. */
  tracing?: Tracing;
}

/** This node's socket server and the journal its loading sockets replay from. */
export interface Realtime {
  io: ImServer;
  journal: RoomJournal;
}

type FanoutHandler<E extends EventName> = (rt: Realtime, payload: EventPayloads[E], opts: FanoutOptions) => void;
type ClientEvent = keyof ServerToClientEvents;

/** A packet to every socket in `to` (but those in `except`), kept for sockets whose rooms are loading. */
function emitTo<E extends ClientEvent>(
  { io, journal }: Realtime,
  to: string | string[],
  event: E,
  payload: Parameters<ServerToClientEvents[E]>[0],
  except?: string,
): void {
  const rooms = list(to);
  const target = except === undefined ? io.to(rooms) : io.to(rooms).except(except);
  (target.emit as (event: E, payload: unknown) => boolean)(event, payload);
  if (journal.recording)
    journal.record({ kind: 'emit', to: rooms, event, payload, ...(except === undefined ? {} : { except }) });
}

const list = (rooms: string | string[]) => (typeof rooms === 'string' ? [rooms] : rooms);

/** Sockets in any of `of` join or leave `rooms` (and so will a socket of theirs still loading). */
function move({ io, journal }: Realtime, kind: 'join' | 'leave', of: string | string[], rooms: string | string[]) {
  if (kind === 'join') io.in(of).socketsJoin(rooms);
  else io.in(of).socketsLeave(rooms);
  if (journal.recording) journal.record({ kind, of: list(of), rooms: list(rooms) });
}

/** DM events name their two members: make sure their sockets are in the DM's room. */
const dmJoin = (rt: Realtime, converseId: string, memberIds: string[] | undefined) => {
  if (memberIds) move(rt, 'join', memberIds.map(userRoom), converseRoom(converseId));
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
 * The events no socket hears through the fan-out: the gateway acts on some
 * itself (revoked sessions, deactivated accounts, new feed tokens), the rest
 * are between services. Every other event needs a FANOUT entry, or the type
 * check fails: a new event cannot be left out by mistake.
 */
export const NOT_FANNED_OUT = [
  EVENTS.userDeactivated,
  EVENTS.sessionsRevoked,
  EVENTS.feedTokenReplaced,
  EVENTS.threadRead,
  EVENTS.fileUploaded,
] as const;
export type FannedOutEvent = Exclude<EventName, (typeof NOT_FANNED_OUT)[number]>;
export type FanoutTable = { [E in FannedOutEvent]: FanoutHandler<E> };

/**
 * Service events -> this node's sockets, one handler per event, each typed
 * by what its event carries (EventPayloads) and by what clients receive
 * (ServerToClientEvents). A gateway node receives the events of the rooms
 * it holds (routed by room over NATS in a cluster, see room-subscriptions.ts;
 * every event with FANOUT_ROUTING=broadcast or on a single instance) and
 * emits to its own sockets in the room; a room emit encodes
 * the packet once for all its sockets. Membership events move this node's
 * sockets between rooms, so delivery follows membership without
 * reconnecting. No database or broker call on this path. Room emits and
 * moves go through the journal, which keeps them only while some socket's
 * rooms are loading; presence and typing are not kept (they are of the moment).
 */
const FANOUT: FanoutTable = {
  [EVENTS.messageCreated]: (rt, p) => {
    dmJoin(rt, p.message.converseId, dmMembersOf(p));
    emitTo(rt, converseRoom(p.message.converseId), 'message:new', p.message);
  },
  [EVENTS.messageRedelivered]: (rt, p) => {
    dmJoin(rt, p.message.converseId, dmMembersOf(p));
    emitTo(rt, converseRoom(p.message.converseId), 'message:new', p.message);
  },
  [EVENTS.messageUpdated]: (rt, p) => {
    dmJoin(rt, p.message.converseId, dmMembersOf(p));
    emitTo(rt, converseRoom(p.message.converseId), 'message:updated', p.message);
  },
  [EVENTS.messageDeleted]: (rt, p) => {
    const { converseId, messageId, seq } = p;
    dmJoin(rt, converseId, dmMembersOf(p));
    emitTo(rt, converseRoom(converseId), 'message:deleted', { converseId, messageId, seq });
  },
  [EVENTS.reactionUpdated]: (rt, { converseId, messageId, emoji, userId, added, counts }) => {
    emitTo(rt, converseRoom(converseId), 'reaction:updated', { converseId, messageId, emoji, userId, added, counts });
  },
  [EVENTS.submessage]: (rt, p) => {
    const { submessage } = p;
    dmJoin(rt, submessage.converseId, dmMembersOf(p));
    emitTo(rt, converseRoom(submessage.converseId), 'message:submessage', submessage);
  },
  // Only the person who ran the command, on each of their devices in that converse.
  [EVENTS.ephemeral]: ({ io }, { userId, message }) => {
    io.to(userRoom(userId)).emit('message:ephemeral', message);
  },
  // The group's apps load its slash commands again (bots and hooks change with them).
  [EVENTS.integrationChanged]: (rt, { groupId }) => {
    emitTo(rt, groupRoom(groupId), 'integrations:changed', { groupId });
  },
  [EVENTS.scheduledUpdated]: ({ io }, { userId, ...event }) => {
    io.to(userRoom(userId)).emit('scheduled:updated', event);
  },
  [EVENTS.reminderDue]: ({ io }, { userId, notification }) => {
    io.to(userRoom(userId)).emit('notification', { type: 'reminder', notification });
  },
  [EVENTS.converseRead]: ({ io }, { converseId, userId, readSeq }) => {
    io.to(userRoom(userId)).emit('converse:read', { converseId, readSeq });
  },
  [EVENTS.converseUnread]: ({ io }, { userId, entry }) => {
    io.to(userRoom(userId)).emit('converse:unread', entry);
  },
  [EVENTS.converseNotifications]: ({ io }, { userId, converseId, level, muteUntil }) => {
    io.to(userRoom(userId)).emit('converse:notifications', { converseId, level, muteUntil });
  },
  [EVENTS.inboxUpdated]: ({ io }, { userId, unread }) => {
    io.to(userRoom(userId)).emit('inbox:updated', { unread });
  },
  [EVENTS.importProgress]: ({ io }, { userId, job }) => {
    io.to(userRoom(userId)).emit('import:progress', job);
  },
  // A read receipt: everyone in the converse sees how far this member read.
  [EVENTS.readUpdated]: (rt, p) => {
    const { converseId, userId, readSeq } = p;
    dmJoin(rt, converseId, dmMembersOf(p));
    emitTo(rt, converseRoom(converseId), 'read:updated', { converseId, userId, readSeq });
  },
  [EVENTS.dmOpened]: (rt, { converse }) => {
    dmJoin(rt, converse.id, converse.memberIds);
    rt.io.to(converse.memberIds.map(userRoom)).emit('dm:opened', converse);
  },
  [EVENTS.groupUpdated]: (rt, { group }) => {
    emitTo(rt, groupRoom(group.id), 'group:updated', group);
  },
  [EVENTS.groupDeleted]: (rt, { groupId, converseIds }) => {
    emitTo(rt, groupRoom(groupId), 'group:deleted', { groupId });
    move(rt, 'leave', groupRoom(groupId), [groupRoom(groupId), ...converseIds.map(converseRoom)]);
  },
  [EVENTS.memberJoined]: (rt, { groupId, userId, role, converseIds, memberCount }, opts) => {
    move(rt, 'join', userRoom(userId), [groupRoom(groupId), ...converseIds.map(converseRoom)]);
    if (memberCount <= opts.presenceGroupLimit)
      retellPresence(rt.io, userId, (ids) => (ids.includes(groupId) ? ids : [...ids, groupId]));
    emitTo(rt, groupRoom(groupId), 'member:joined', { groupId, userId, role });
  },
  [EVENTS.memberLeft]: (rt, { groupId, userId, converseIds, removedBy }) => {
    // Tell the group (the leaver included), then stop delivering to the leaver at once.
    // `removed` (kicked or banned, not left) lets the removed member's app say so.
    const removed = removedBy !== undefined ? { removed: true as const } : {};
    emitTo(rt, [groupRoom(groupId), userRoom(userId)], 'member:left', { groupId, userId, ...removed });
    move(rt, 'leave', userRoom(userId), [groupRoom(groupId), ...converseIds.map(converseRoom)]);
    retellPresence(rt.io, userId, (ids) => ids.filter((id) => id !== groupId));
  },
  [EVENTS.memberUpdated]: (rt, { groupId, userId, role, roleIds, mutedUntil }) => {
    emitTo(rt, groupRoom(groupId), 'member:updated', {
      groupId,
      userId,
      role,
      roleIds,
      ...(mutedUntil ? { mutedUntil } : {}),
    });
  },
  [EVENTS.rolesUpdated]: (rt, { groupId, roles }) => {
    emitTo(rt, groupRoom(groupId), 'roles:updated', { groupId, roles });
  },
  [EVENTS.userGroupsUpdated]: (rt, { groupId, userGroups }) => {
    emitTo(rt, groupRoom(groupId), 'usergroups:updated', { groupId, userGroups });
  },
  // A private panel is announced by panel.access to those who see it, never to the whole group.
  [EVENTS.panelCreated]: (rt, { groupId, panel }) => {
    if (panel.private) return;
    move(rt, 'join', groupRoom(groupId), converseRoom(panel.converseId));
    emitTo(rt, groupRoom(groupId), 'panel:created', { groupId, panel });
  },
  // A private panel's viewers are the sockets in its room.
  [EVENTS.panelUpdated]: (rt, { groupId, panel }) => {
    emitTo(rt, panel.private ? converseRoom(panel.converseId) : groupRoom(groupId), 'panel:updated', {
      groupId,
      panel,
    });
  },
  // Those who lose the panel see it go and stop hearing it; those who gain it get it as new.
  [EVENTS.panelAccess]: (rt, { groupId, panel, grantedUserIds, revokedUserIds }) => {
    if (revokedUserIds.length > 0) {
      const revoked = revokedUserIds.map(userRoom);
      emitTo(rt, revoked, 'panel:deleted', { groupId, panelId: panel.id, converseId: panel.converseId });
      move(rt, 'leave', revoked, converseRoom(panel.converseId));
    }
    if (grantedUserIds.length > 0) {
      const granted = grantedUserIds.map(userRoom);
      move(rt, 'join', granted, converseRoom(panel.converseId));
      emitTo(rt, granted, 'panel:created', { groupId, panel });
    }
  },
  // A private panel's going is told to its viewers only: to the others it never existed.
  [EVENTS.panelDeleted]: (rt, { groupId, panelId, converseId, private: isPrivate }) => {
    emitTo(rt, isPrivate ? converseRoom(converseId) : groupRoom(groupId), 'panel:deleted', {
      groupId,
      panelId,
      converseId,
    });
    move(rt, 'leave', converseRoom(converseId), converseRoom(converseId));
  },
  [EVENTS.typing]: ({ io }, { converseId, userId }) => {
    io.to(converseRoom(converseId)).except(userRoom(userId)).emit('typing', { converseId, userId });
  },
  [EVENTS.emojiChanged]: (rt, { groupId }) => {
    emitTo(rt, groupRoom(groupId), 'emoji:changed', { groupId });
  },
  [EVENTS.userUpdated]: (rt, { user, groupIds, converseIds }) => {
    emitTo(rt, [userRoom(user.id), ...groupIds.map(groupRoom), ...converseIds.map(converseRoom)], 'user:updated', user);
  },
  [EVENTS.callUpdated]: (rt, p) => {
    const { converseId, participants } = p;
    dmJoin(rt, converseId, dmMembersOf(p));
    emitTo(rt, converseRoom(converseId), 'call:updated', { converseId, participants });
  },
  // Rings every device of the callee, wherever their sockets are.
  [EVENTS.callRinging]: ({ io }, { converseId, callerId, startedAt, userIds }) => {
    io.to(userIds.map(userRoom)).emit('call:ringing', { converseId, callerId, startedAt });
  },
  [EVENTS.callDeclined]: ({ io }, { converseId, userId, memberIds }) => {
    io.to(memberIds.map(userRoom)).emit('call:declined', { converseId, userId });
  },
  [EVENTS.presence]: ({ io }, { groupIds, converseIds, ...status }) => {
    const rooms = [...groupIds.map(groupRoom), ...(converseIds ?? []).map(converseRoom)];
    if (rooms.length > 0) io.to(rooms).emit('presence', status);
  },
  // The user's own devices: the status menu shows the change made on another.
  [EVENTS.statusUpdated]: ({ io }, { userId, status }) => {
    io.to(userRoom(userId)).emit('status:updated', status);
  },
};

/** The events gateways fan out to sockets. */
export const FANOUT_EVENTS = Object.keys(FANOUT) as FannedOutEvent[];

/** Runs the fan-out of one event (any other is ignored) on this node's sockets. */
export type FanoutRun = (event: string, payload: unknown) => void;

/**
 * Each fan-out handler bound to this node's socket server, timed when
 * `timing` is given (a room emit writes to every local socket before it
 * returns: its duration is this node's fan-out time, first write to last).
 */
export function fanoutRunner(
  realtime: () => Realtime | undefined,
  opts: FanoutOptions,
  timing?: Histogram<'event'>,
): FanoutRun {
  return (event, payload) => {
    const fanout = Object.hasOwn(FANOUT, event)
      ? (FANOUT[event as FannedOutEvent] as FanoutHandler<EventName>)
      : undefined;
    const rt = realtime();
    if (!fanout || !rt) return;
    const started = timing ? performance.now() : 0;
    if (opts.tracing)
      opts.tracing.inSpan(`socket.io emit ${event}`, { 'messaging.system': 'socket.io', 'im.event': event }, () =>
        fanout(rt, payload as never, opts),
      );
    else fanout(rt, payload as never, opts);
    timing?.observe({ event }, (performance.now() - started) / 1000);
  };
}

/**
 * The gateway's broker subscriptions for `events` (fan-out events it takes
 * from broadcasts), each counted in `received` as it arrives.
 */
export function fanoutHandlers(
  run: FanoutRun,
  events: readonly EventName[],
  received?: Counter,
): Record<string, (ctx: Context<never>) => void> {
  return Object.fromEntries(
    events.map((event) => [
      event,
      (ctx: Context<never>) => {
        received?.inc();
        run(event, ctx.params);
      },
    ]),
  );
}
