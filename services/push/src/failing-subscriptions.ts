import type { Model } from 'mongoose';
import type { SubscriptionDoc } from './models.ts';

/**
 * How long a Web Push subscription may fail without a break before it is
 * removed: a push service that is down recovers within days, while an
 * endpoint that never answers (or an attacker's host) would otherwise cost a
 * request, and its retries, on every notification for ever.
 */
export const SUBSCRIPTION_GIVE_UP_AFTER_MS = 7 * 24 * 3600_000;

/** Records when a subscription started failing, forgets it on the next success, removes it past the bound. */
export function failingSubscriptions(
  subscriptions: Model<SubscriptionDoc>,
  giveUpAfterMs = SUBSCRIPTION_GIVE_UP_AFTER_MS,
) {
  return {
    async failing(endpoint: string): Promise<void> {
      const now = Date.now();
      const removed = await subscriptions.deleteOne({
        endpoint,
        failingSince: { $lte: new Date(now - giveUpAfterMs) },
      });
      if (removed.deletedCount > 0) return;
      // Only the first failure of a run is written; later ones match nothing.
      await subscriptions.updateOne({ endpoint, failingSince: null }, { $set: { failingSince: new Date(now) } });
    },
    async recovered(endpoint: string): Promise<void> {
      await subscriptions.updateOne({ endpoint, failingSince: { $ne: null } }, { $unset: { failingSince: 1 } });
    },
  };
}
