/**
 * socket.io room names, shared by the gateway (whose sockets are in them)
 * and the producers of realtime events (which publish on the rooms an event
 * concerns when events are routed by room).
 */
export const userRoom = (userId: string) => `u:${userId}`;
export const groupRoom = (groupId: string) => `g:${groupId}`;
export const converseRoom = (converseId: string) => `c:${converseId}`;
/** The sockets of one login session: closed together when it is revoked (a broadcast event, never routed). */
export const sessionRoom = (sessionId: string) => `s:${sessionId}`;

/** Rooms realtime events are routed to: every socket of a user, of a group's members, of a converse's members. */
export const isRoutedRoom = (room: string) =>
  room.length > 2 && room.charCodeAt(1) === 58 /* ':' */ && 'ugc'.includes(room[0]!);
