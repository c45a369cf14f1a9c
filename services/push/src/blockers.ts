import { call } from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import type { Recipients } from './recipients.ts';

/** The recipients less those who blocked the author: they hear of none of its messages (no inbox entry, no push). */
export async function withoutBlockers(
  broker: ServiceBroker,
  authorId: string,
  recipients: Recipients,
): Promise<Recipients> {
  const ids = [...recipients.addressed.keys(), ...recipients.everyMessage];
  if (ids.length === 0) return recipients;
  const blockers = new Set(await call(broker, 'user.blockersAmong', { userId: authorId, ids }));
  if (blockers.size === 0) return recipients;
  return {
    addressed: new Map([...recipients.addressed].filter(([id]) => !blockers.has(id))),
    everyMessage: recipients.everyMessage.filter((id) => !blockers.has(id)),
  };
}
