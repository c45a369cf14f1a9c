import { dmMembersOf, type EventPayloads } from '../events.ts';
import { converseRoom, groupRoom, userRoom } from './rooms.ts';

/**
 * For each realtime event a gateway fans out to sockets, the rooms it
 * concerns: the rooms it is emitted to, plus the rooms whose sockets it
 * moves (a gateway holding the moved sockets must hear it even if it holds
 * none of the destination rooms yet), plus the converse rooms whose public
 * pages it makes stale (a gateway keeping such a page holds that room).
 * With routing on, an event is published once per room here, and a gateway
 * hears it when it holds at least one of them.
 *
 * `user.updated` is absent on purpose: it stays a broadcast (rare, and every
 * gateway's public cache drops everything on it).
 */
export const EVENT_ROOMS = {
  // DM events name their members: their sockets may not be in the DM's room yet.
  'chat.message.created': (p) => withMembers(converseRoom(p.message.converseId), dmMembersOf(p)),
  'chat.message.redelivered': (p) => withMembers(converseRoom(p.message.converseId), dmMembersOf(p)),
  'chat.message.updated': (p) => withMembers(converseRoom(p.message.converseId), dmMembersOf(p)),
  'chat.message.deleted': (p) => withMembers(converseRoom(p.converseId), dmMembersOf(p)),
  'chat.reaction.updated': (p) => [converseRoom(p.converseId)],
  'chat.message.submessage': (p) => withMembers(converseRoom(p.submessage.converseId), dmMembersOf(p)),
  'chat.converse.read': (p) => [userRoom(p.userId)],
  'chat.converse.unread': (p) => [userRoom(p.userId)],
  'push.converse.notifications': (p) => [userRoom(p.userId)],
  'push.inbox.updated': (p) => [userRoom(p.userId)],
  'import.progress': (p) => [userRoom(p.userId)],
  'chat.read.updated': (p) => withMembers(converseRoom(p.converseId), dmMembersOf(p)),
  'chat.dm.opened': (p) => withMembers(converseRoom(p.converse.id), p.converse.memberIds),
  'integration.ephemeral': (p) => [userRoom(p.userId)],
  'integration.changed': (p) => [groupRoom(p.groupId)],
  'group.updated': (p) => [groupRoom(p.group.id), ...p.group.panels.map((panel) => converseRoom(panel.converseId))],
  'group.deleted': (p) => [groupRoom(p.groupId), ...p.converseIds.map(converseRoom)],
  // The joiner's and leaver's sockets move: gateways holding their user room must hear it.
  'group.member.joined': (p) => [groupRoom(p.groupId), userRoom(p.userId)],
  'group.member.left': (p) => [groupRoom(p.groupId), userRoom(p.userId)],
  'group.member.updated': (p) => [groupRoom(p.groupId)],
  'group.panel.created': (p) => [groupRoom(p.groupId)],
  'group.panel.updated': (p) => [groupRoom(p.groupId), converseRoom(p.panel.converseId)],
  'group.panel.deleted': (p) => [groupRoom(p.groupId), converseRoom(p.converseId)],
  // Everyone granted or revoked is a member, so their sockets are in the group's room.
  'group.panel.access': (p) => [groupRoom(p.groupId), converseRoom(p.panel.converseId)],
  'group.roles.updated': (p) => [groupRoom(p.groupId)],
  'group.emoji.changed': (p) => [groupRoom(p.groupId)],
  'group.usergroups.updated': (p) => [groupRoom(p.groupId)],
  'gateway.typing': (p) => [converseRoom(p.converseId)],
  'gateway.presence': (p) => [...p.groupIds.map(groupRoom), ...(p.converseIds ?? []).map(converseRoom)],
  'user.status.updated': (p) => [userRoom(p.userId)],
  'call.updated': (p) => withMembers(converseRoom(p.converseId), dmMembersOf(p)),
  'call.ringing': (p) => p.userIds.map(userRoom),
  'call.declined': (p) => p.memberIds.map(userRoom),
  'chat.scheduled.updated': (p) => [userRoom(p.userId)],
  'push.reminder.due': (p) => [userRoom(p.userId)],
} satisfies { [E in keyof EventPayloads]?: (payload: EventPayloads[E]) => string[] };

export type RoutedEventName = keyof typeof EVENT_ROOMS;

function withMembers(room: string, memberIds: string[] | undefined): string[] {
  return memberIds ? [room, ...memberIds.map(userRoom)] : [room];
}

/** Whether `event` is routed by room (when the node routes at all). */
export const isRoutedEvent = (event: string): event is RoutedEventName => Object.hasOwn(EVENT_ROOMS, event);

/** The rooms `payload` of `event` concerns, without repeats. */
export function roomsOf<E extends RoutedEventName>(event: E, payload: EventPayloads[E]): string[] {
  const rooms = (EVENT_ROOMS[event] as (p: EventPayloads[E]) => string[])(payload);
  return rooms.length > 1 ? [...new Set(rooms)] : rooms;
}
