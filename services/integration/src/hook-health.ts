import { announce, EVENTS } from '@im/sdk';
import { dropWaiting } from './backlog.ts';
import type { OutgoingHookDoc } from './models.ts';
import type { IntegrationStore } from './store/integration-store.ts';
import type { HandlerModels } from './store/reads.ts';

interface Broadcaster {
  broadcast(event: string, payload?: unknown): unknown;
  logger?: { warn(...args: unknown[]): void };
}

/**
 * Whether each outgoing hook is failing, and since when, on the hook's record
 * (so every node, and a restart, agree): the first failure after a success
 * starts the clock, a 2xx answer stops it, and a hook failing for
 * `disableAfterMs` (WEBHOOK_DISABLE_AFTER_MS, 24 h) is disabled: what it
 * had waiting is dropped and it gets no new deliveries until an admin turns
 * it on again. Each change is announced, so every node's directory reloads.
 */
export function hookHealth(
  models: HandlerModels,
  store: IntegrationStore,
  broker: Broadcaster,
  disableAfterMs: number,
) {
  const changed = (hook: OutgoingHookDoc) =>
    announce(broker, EVENTS.integrationChanged, { groupId: hook.groupId.toHexString() });

  /** When the hook started failing: as recorded, or now if this is the first failure. */
  const failingSince = async (hook: OutgoingHookDoc, now: Date): Promise<Date> => {
    if (hook.failingSince) return hook.failingSince;
    const { modifiedCount } = await store.updateOutgoingOnce(
      hook.groupId.toHexString(),
      { _id: hook._id, failingSince: { $exists: false } },
      { $set: { failingSince: now } },
    );
    if (modifiedCount === 1) {
      changed(hook);
      return now;
    }
    // Another node (or an earlier attempt, before this node's copy was reloaded) started it.
    const current = await models.outgoing.findById(hook._id, { failingSince: 1 }).lean<OutgoingHookDoc>();
    return current?.failingSince ?? now;
  };

  return {
    /** A delivery failed (not a refusal): answers true if that disabled the hook. */
    async failed(hook: OutgoingHookDoc): Promise<boolean> {
      const now = new Date();
      const since = await failingSince(hook, now);
      if (now.getTime() - since.getTime() < disableAfterMs) return false;
      // Checked on the record too: an admin who turned the hook on again meanwhile reset its clock
      // (this node's copy, or the attempt's, may still hold the old one).
      const { matchedCount, modifiedCount } = await store.updateOutgoingOnce(
        hook.groupId.toHexString(),
        { _id: hook._id, failingSince: { $lte: new Date(now.getTime() - disableAfterMs) } },
        { $set: { disabled: true } },
      );
      if (matchedCount === 0) return false;
      if (modifiedCount === 1) {
        await dropWaiting(models, hook._id, 'Dropped: the webhook was disabled after failing for too long');
        changed(hook);
      }
      return true;
    },

    /** A delivery was answered 2xx: the hook is no longer failing. */
    async succeeded(hook: OutgoingHookDoc): Promise<void> {
      if (!hook.failingSince) return;
      const { modifiedCount } = await store.updateOutgoingOnce(
        hook.groupId.toHexString(),
        { _id: hook._id, failingSince: { $exists: true } },
        { $unset: { failingSince: 1 } },
      );
      if (modifiedCount === 1) changed(hook);
    },
  };
}
