import { call } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import type { Types } from 'mongoose';

/**
 * The recipients a push may reach: those not in do not disturb now (by
 * hand or by schedule). Their inbox entries are written all the same. When
 * the user service cannot answer, nobody is held back.
 */
export async function withoutDnd(broker: ServiceBroker, ids: Types.ObjectId[]): Promise<Types.ObjectId[]> {
  const dnd = new Set(
    await call(broker, 'user.dndAmong', { ids: ids.map((id) => id.toHexString()) }).catch((): string[] => []),
  );
  return dnd.size === 0 ? ids : ids.filter((id) => !dnd.has(id.toHexString()));
}
