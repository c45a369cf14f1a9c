import { announce, call, EVENTS, type AppContext } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import { ownStatus, shownStatus, type StoredStatus } from './user-status.ts';

/**
 * Tells of a status change: the user's own devices (`status:updated`), and
 * everyone who shares a small group or a DM with them (`presence`, with
 * whether they are online and away, which the gateways know). The change is
 * saved whatever happens here; without the rooms, only the user's devices hear.
 */
export async function announceStatus(
  app: AppContext,
  broker: ServiceBroker,
  userId: string,
  stored: StoredStatus | undefined,
  now: number,
): Promise<void> {
  announce(broker, EVENTS.statusUpdated, { userId, status: ownStatus(stored, now) });
  const [rooms, presence] = await Promise.all([
    call(broker, 'chat.userRooms', { userId }).catch(() => ({ groups: [], dmIds: [] as string[] })),
    call(broker, 'gateway.presenceOf', { userIds: [userId] }).catch(() => ({
      online: [] as string[],
      away: [] as string[],
    })),
  ]);
  announce(broker, EVENTS.presence, {
    userId,
    online: presence.online.includes(userId),
    ...(presence.away.includes(userId) ? { away: true as const } : {}),
    ...shownStatus(stored, now),
    groupIds: rooms.groups.filter((g) => g.memberCount <= app.config.presenceGroupLimit).map((g) => g.groupId),
    converseIds: rooms.dmIds,
  });
}
