import type { PresenceStatus } from '@im/protocol';
import { call, EVENTS, publishEvent } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import type { PresenceStore } from './presence.ts';

/**
 * What others see of these users now: online and away from the presence
 * store, do not disturb and the custom status from the user service
 * (without it, presence alone: a status is a nicety, presence is not).
 */
export async function presenceStatuses(
  broker: ServiceBroker,
  presence: PresenceStore,
  userIds: string[],
): Promise<Map<string, PresenceStatus>> {
  const [online, away, statuses] = await Promise.all([
    presence.online(userIds),
    presence.away(userIds),
    call(broker, 'user.statuses', { ids: userIds }).catch(() => ({}) as Record<string, Omit<PresenceStatus, 'online'>>),
  ]);
  return new Map(
    userIds.map((id) => [
      id,
      { online: online.has(id), ...(away.has(id) ? { away: true as const } : {}), ...statuses[id] },
    ]),
  );
}

/**
 * Tells the groups in `groupIds` of a change in the user's presence (came
 * online, went offline, went away, came back), with their whole status.
 */
export async function publishPresence(
  broker: ServiceBroker,
  presence: PresenceStore,
  userId: string,
  groupIds: string[],
): Promise<void> {
  if (groupIds.length === 0) return;
  const status = (await presenceStatuses(broker, presence, [userId])).get(userId) ?? { online: false };
  await publishEvent(broker, EVENTS.presence, { userId, ...status, groupIds });
}
