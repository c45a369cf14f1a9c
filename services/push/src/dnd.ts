import { call } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import type { Types } from 'mongoose';

/**
 * Of these users, those in do not disturb now (by hand or by schedule): a
 * push holds back for them, their inbox entries are written all the same.
 * When the user service cannot answer, nobody is held back.
 */
export async function dndAmong(broker: ServiceBroker, ids: readonly Types.ObjectId[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const asked = [...new Set(ids.map((id) => id.toHexString()))];
  return new Set(await call(broker, 'user.dndAmong', { ids: asked }).catch((): string[] => []));
}

/** The users of `ids` a push may reach now: those not in do not disturb. */
export async function withoutDnd(broker: ServiceBroker, ids: Types.ObjectId[]): Promise<Types.ObjectId[]> {
  const held = await dndAmong(broker, ids);
  return held.size === 0 ? ids : ids.filter((id) => !held.has(id.toHexString()));
}
