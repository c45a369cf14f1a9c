/** socket.io room names: every socket of a user, of a group's members, of a converse's members. */
export const userRoom = (userId: string) => `u:${userId}`;
export const groupRoom = (groupId: string) => `g:${groupId}`;
export const converseRoom = (converseId: string) => `c:${converseId}`;

/**
 * The groups told when a user comes or goes: those of at most `limit`
 * members (PRESENCE_GROUP_LIMIT); larger groups ask GET /api/presence.
 */
export const presenceGroupIds = (groups: ReadonlyArray<{ groupId: string; memberCount: number }>, limit: number) =>
  groups.filter((g) => g.memberCount <= limit).map((g) => g.groupId);

/** The sockets of one login session: closed together when it is revoked. */
export const sessionRoom = (sessionId: string) => `s:${sessionId}`;
