import {
  CircuitBreaker,
  EVENTS,
  MemoryQueue,
  outboundGuardFor,
  RedisStreamQueue,
  type AppContext,
  type DeliveryQueue,
  type PerKeyLimit,
  type ServiceEvents,
  type ServiceFactory,
  defineActions,
} from '@im/sdk';
import { createEncryptor } from './delivery/encrypt-pool.ts';
import { FanOutGate } from './delivery/fan-out-gate.ts';
import { pushPoster } from './delivery/http-client.ts';
import type { PushJobData } from './delivery/push-job.ts';
import { createSender } from './delivery/sender.ts';
import { departureActions } from './departure-actions.ts';
import { moveMutedConverses } from './converse-levels.ts';
import { inboxActions } from './inbox-actions.ts';
import { levelActions } from './level-actions.ts';
import { pushMetrics } from './metrics.ts';
import { failingSubscriptions } from './failing-subscriptions.ts';
import { pushModels } from './models.ts';
import { notifier } from './notify.ts';
import { registrationActions } from './registration-actions.ts';
import { reminderActions } from './reminder-actions.ts';
import { resolveVapidKeys } from './vapid.ts';

/**
 * Jobs the in-memory queue may hold before new messages' notification work
 * waits: enough to keep every delivery slot busy while the next message's
 * reads and inbox entries are done (2,048 is about 0.1 s of deliveries at
 * 15,000/s), few enough that a job is usually sent before V8's young
 * generation has been collected twice: one that outlives two scavenges is
 * copied to the old space, which then grows (benchmark/README.md, push).
 */
const fanOutHighWater = (concurrency: number) => Math.max(2048, 32 * concurrency);

/**
 * Web Push deliveries in progress per endpoint host: a quarter of the
 * delivery slots (16 of the default 64, the guard's connections per origin,
 * so a healthy push service is not slowed), so a host that is slow or does
 * not answer holds at most that many while the rest go on; its other jobs
 * wait parked, in order, outside the slots. The push proxy is the operator's
 * own: not bounded.
 */
const perHostLimit = (concurrency: number): PerKeyLimit<PushJobData> => ({
  max: Math.ceil(concurrency / 4),
  keyOf: (job) => (job.channel === 'webpush' ? endpointHost((job.target as { endpoint: string }).endpoint) : undefined),
});

/** The host of an endpoint URL (its ports together), or the URL itself if it does not parse (the sender drops it). */
function endpointHost(endpoint: string): string {
  try {
    return new URL(endpoint).hostname;
  } catch {
    return endpoint;
  }
}

/**
 * Notifications for members who are not looking: inbox entries, Web Push and
 * mobile pushes through a delivery queue (memory on a single instance, a
 * Redis stream in a cluster).
 */
export const createPushService: ServiceFactory = (app: AppContext) => {
  const models = pushModels(app.mongo!);
  let queue: DeliveryQueue<PushJobData> | undefined;
  let gate: FanOutGate | undefined;
  // Every push destination (Web Push endpoints, the push proxy) is user- or admin-supplied.
  const outbound = outboundGuardFor(app, 'push', {
    timeoutMs: Math.min(app.config.pushTimeoutMs, app.config.outboundTimeoutMs),
  });
  const deps = {
    app,
    models,
    vapid: resolveVapidKeys(app.config),
    queue: () => queue,
    fanOut: () => gate,
    outbound,
    targetsChanged: () => notify.targetsChanged(),
  };
  const encryptor = createEncryptor(app.config.pushEncryptWorkers);
  const failing = failingSubscriptions(models.subscriptions);
  const send = createSender(
    deps.vapid,
    app.config.pushProxyUrl,
    new CircuitBreaker(),
    {
      ...pushMetrics(app.metrics, async () => (await queue?.depth()) ?? 0),
      gone: (endpoint) => void models.subscriptions.deleteOne({ endpoint }).catch(() => undefined),
      failing: (endpoint) => void failing.failing(endpoint).catch(() => undefined),
      recovered: (endpoint) => void failing.recovered(endpoint).catch(() => undefined),
    },
    pushPoster(outbound),
    encryptor,
  );
  const notify = notifier(deps);

  return {
    name: 'push',
    async started() {
      await Promise.all(Object.values(models).map((m) => m.createIndexes()));
      await moveMutedConverses(models);
      if (app.redis) {
        queue = new RedisStreamQueue<PushJobData>(app.redis, this.broker.nodeID, { name: 'push' });
      } else {
        const memory = new MemoryQueue<PushJobData>();
        gate = new FanOutGate(memory, fanOutHighWater(app.config.pushConcurrency));
        queue = memory;
      }
      queue.start(send, app.config.pushConcurrency, perHostLimit(app.config.pushConcurrency));
    },
    async stopped() {
      gate?.stop();
      await queue?.stop();
      await Promise.all([outbound.close(), encryptor.close()]);
    },
    actions: defineActions('push', {
      ...registrationActions(deps),
      ...inboxActions(deps),
      ...levelActions(deps),
      ...departureActions(deps),
      ...reminderActions(deps),
    }),
    events: {
      [EVENTS.messageCreated]: { handler: notify.messageCreated },
      [EVENTS.converseRead]: { handler: notify.converseRead },
      [EVENTS.threadRead]: { handler: notify.threadRead },
      [EVENTS.memberJoined]: { handler: (ctx) => notify.membershipChanged(ctx.params.converseIds) },
      [EVENTS.groupDeleted]: { handler: (ctx) => notify.membershipChanged(ctx.params.converseIds) },
      [EVENTS.memberLeft]: {
        handler: (ctx) => notify.accessLost(ctx, ctx.params.userId, ctx.params.converseIds),
      },
      [EVENTS.panelAccess]: {
        async handler(ctx) {
          const { revokedUserIds, panel } = ctx.params;
          notify.membershipChanged([panel.converseId]);
          await Promise.all(revokedUserIds.map((id) => notify.accessLost(ctx, id, [panel.converseId])));
        },
      },
    } satisfies ServiceEvents,
  };
};
