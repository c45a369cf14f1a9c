import type { AppContext, DeliveryQueue, OutboundGuard } from '@im/sdk';
import type { FanOutGate } from './delivery/fan-out-gate.ts';
import type { PushJobData } from './delivery/push-job.ts';
import type { PushModels } from './models.ts';
import type { VapidKeys } from './vapid.ts';

/** What the push service's actions and event handlers share. */
export interface PushDeps {
  app: AppContext;
  models: PushModels;
  vapid: VapidKeys;
  /** The delivery queue, once the service started. */
  queue: () => DeliveryQueue<PushJobData> | undefined;
  /** Holds messages' notification work while the in-memory queue has no room for their jobs (none with the Redis stream). */
  fanOut: () => FanOutGate | undefined;
  /** The guarded client for every push destination. */
  outbound: OutboundGuard;
  /** A browser or device was registered or removed: whatever is kept about who can be pushed to is stale. */
  targetsChanged: () => void;
}
