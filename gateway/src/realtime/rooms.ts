/** socket.io room names (shared with the producers of routed events, so they live in the sdk). */
export { converseRoom, groupRoom, sessionRoom, userRoom } from '@im/sdk';

/**
 * The groups told when a user comes or goes: those of at most `limit`
 * members (PRESENCE_GROUP_LIMIT); larger groups ask GET /api/presence.
 */
export const presenceGroupIds = (groups: ReadonlyArray<{ groupId: string; memberCount: number }>, limit: number) =>
  groups.filter((g) => g.memberCount <= limit).map((g) => g.groupId);
