import type { Message } from '@im/protocol';
import { callerId, EVENTS, isDuplicateKeyError, type AppContext, type CallerMeta, type ServiceFactory } from '@im/sdk';
import type { Context, ServiceBroker } from 'moleculer';
import { Types } from 'mongoose';
import { Counter, Gauge, Histogram } from 'prom-client';
import { CircuitBreaker } from './delivery/circuit-breaker.ts';
import { MemoryQueue, RedisStreamQueue, type DeliveryQueue, type PushJob } from './delivery/queue.ts';
import { createSender } from './delivery/sender.ts';
import { pushModels, type DeviceDoc, type NotificationDoc, type SettingsDoc, type SubscriptionDoc } from './models.ts';
import { pushParams } from './params.ts';
import { resolveVapidKeys } from './vapid.ts';

type Ctx<P = Record<string, never>> = Context<P, CallerMeta>;

export interface NotificationView {
  id: string;
  kind: 'mention' | 'dm';
  converseId: string;
  messageId: string;
  seq: number;
  authorId: string;
  preview: string;
  createdAt: string;
}

const toView = (n: NotificationDoc): NotificationView => ({
  id: n._id.toHexString(),
  kind: n.kind,
  converseId: n.converseId.toHexString(),
  messageId: n.messageId.toHexString(),
  seq: n.seq,
  authorId: n.authorId.toHexString(),
  preview: n.preview,
  createdAt: n.createdAt.toISOString(),
});

/**
 * What reaches a member who is not looking: for DMs and mentions, members
 * with no socket anywhere get an inbox entry and a push (Web Push, and the
 * HTTP push proxy for mobile devices), unless they muted it.
 */
export const createPushService: ServiceFactory = (app: AppContext) => {
  const models = pushModels(app.mongo!);
  const vapid = resolveVapidKeys(app.config);
  const breaker = new CircuitBreaker();
  let queue: DeliveryQueue | undefined;

  const metrics = {
    sent: new Counter({
      name: 'im_push_sent_total',
      help: 'Notifications delivered',
      labelNames: ['channel'] as const,
      registers: [app.metrics],
    }),
    failed: new Counter({
      name: 'im_push_failed_total',
      help: 'Notifications dropped',
      labelNames: ['channel', 'reason'] as const,
      registers: [app.metrics],
    }),
    retried: new Counter({
      name: 'im_push_retried_total',
      help: 'Delivery attempts to retry',
      labelNames: ['channel'] as const,
      registers: [app.metrics],
    }),
    latency: new Histogram({
      name: 'im_push_latency_seconds',
      help: 'Push endpoint answer time',
      labelNames: ['channel'] as const,
      buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [app.metrics],
    }),
    depth: new Gauge({
      name: 'im_push_queue_depth',
      help: 'Notifications waiting (including retries)',
      registers: [app.metrics],
      async collect() {
        this.set((await queue?.depth()) ?? 0);
      },
    }),
  };

  const send = createSender(vapid, app.config.pushProxyUrl, breaker, {
    sent: (channel, ms) => {
      metrics.sent.inc({ channel });
      metrics.latency.observe({ channel }, ms / 1000);
    },
    failed: (channel, reason) => metrics.failed.inc({ channel, reason }),
    retried: (channel) => metrics.retried.inc({ channel }),
    gone: (endpoint) => void models.subscriptions.deleteOne({ endpoint }).catch(() => undefined),
  });

  /** The users of `ids` with no socket on any gateway (all of them if no gateway answers). */
  const offline = async (broker: ServiceBroker, ids: string[]) => {
    const online = new Set((await broker.call('gateway.online', { userIds: ids }).catch(() => [])) as string[]);
    return ids.filter((id) => !online.has(id));
  };

  /** In a cluster every push node hears each message: one of them (whoever sets the key) handles it. */
  const claim = async (messageId: string) =>
    !app.redis || (await app.redis.set(`push:seen:${messageId}`, '1', 'EX', 3600, 'NX')) === 'OK';

  return {
    name: 'push',
    async started() {
      await Promise.all(Object.values(models).map((m) => m.createIndexes()));
      const broker = this.broker;
      queue = app.redis ? new RedisStreamQueue(app.redis, broker.nodeID) : new MemoryQueue();
      queue.start(send, app.config.pushConcurrency);
    },
    async stopped() {
      await queue?.stop();
    },
    actions: {
      vapidPublicKey: {
        params: pushParams.vapidPublicKey,
        handler: () => ({ key: vapid.publicKey }),
      },
      subscribe: {
        params: pushParams.subscribe,
        async handler(
          ctx: Ctx<{ endpoint: string; keys: { p256dh: string; auth: string } }>,
        ): Promise<{ endpoint: string }> {
          const userId = callerId(ctx);
          const { endpoint, keys } = ctx.params;
          await models.subscriptions.updateOne(
            { endpoint },
            { $set: { userId, p256dh: keys.p256dh, auth: keys.auth } },
            { upsert: true },
          );
          return { endpoint };
        },
      },
      unsubscribe: {
        params: pushParams.unsubscribe,
        async handler(ctx: Ctx<{ endpoint: string }>): Promise<void> {
          await models.subscriptions.deleteOne({ endpoint: ctx.params.endpoint, userId: callerId(ctx) });
        },
      },
      registerDevice: {
        params: pushParams.registerDevice,
        async handler(
          ctx: Ctx<{ platform: 'ios' | 'android'; token: string }>,
        ): Promise<{ platform: string; token: string }> {
          const userId = callerId(ctx);
          await models.devices.updateOne(
            { token: ctx.params.token },
            { $set: { userId, platform: ctx.params.platform } },
            { upsert: true },
          );
          return { platform: ctx.params.platform, token: ctx.params.token };
        },
      },
      removeDevice: {
        params: pushParams.removeDevice,
        async handler(ctx: Ctx<{ token: string }>): Promise<void> {
          await models.devices.deleteOne({ token: ctx.params.token, userId: callerId(ctx) });
        },
      },
      /** Mentions and DMs received while offline, newest first. */
      inbox: {
        params: pushParams.inbox,
        async handler(
          ctx: Ctx<{ cursor?: string; limit?: number }>,
        ): Promise<{ items: NotificationView[]; nextCursor: string | null }> {
          const userId = callerId(ctx);
          const limit = ctx.params.limit ?? 50;
          const docs = await models.notifications
            .find({ userId, ...(ctx.params.cursor ? { _id: { $lt: ctx.params.cursor } } : {}) })
            .sort({ _id: -1 })
            .limit(limit + 1)
            .lean<NotificationDoc[]>();
          const page = docs.slice(0, limit);
          return { items: page.map(toView), nextCursor: docs.length > limit ? page.at(-1)!._id.toHexString() : null };
        },
      },
      getSettings: {
        params: pushParams.getSettings,
        async handler(ctx: Ctx): Promise<{ muteAll: boolean; mutedConverseIds: string[] }> {
          const doc = await models.settings.findOne({ userId: callerId(ctx) }).lean<SettingsDoc>();
          return {
            muteAll: doc?.muteAll ?? false,
            mutedConverseIds: (doc?.mutedConverseIds ?? []).map((id) => id.toHexString()),
          };
        },
      },
      updateSettings: {
        params: pushParams.updateSettings,
        async handler(
          ctx: Ctx<{ muteAll?: boolean; mutedConverseIds?: string[] }>,
        ): Promise<{ muteAll: boolean; mutedConverseIds: string[] }> {
          const userId = callerId(ctx);
          const set: Record<string, unknown> = {};
          if (ctx.params.muteAll !== undefined) set.muteAll = ctx.params.muteAll;
          if (ctx.params.mutedConverseIds)
            set.mutedConverseIds = ctx.params.mutedConverseIds.map((id) => new Types.ObjectId(id));
          const doc = await models.settings
            .findOneAndUpdate({ userId }, { $set: set }, { upsert: true, new: true })
            .lean<SettingsDoc>();
          return { muteAll: doc!.muteAll, mutedConverseIds: doc!.mutedConverseIds.map((id) => id.toHexString()) };
        },
      },
    },
    events: {
      [EVENTS.messageCreated]: {
        async handler(ctx: Context<{ message: Message; memberIds?: string[] }>) {
          const { message, memberIds } = ctx.params;
          const kind: 'dm' | 'mention' = memberIds ? 'dm' : 'mention';
          const targets = (memberIds ?? message.mentions).filter((id) => id !== message.authorId);
          if (targets.length === 0 || !(await claim(message.id))) return;

          const settings = await models.settings.find({ userId: { $in: targets } }).lean<SettingsDoc[]>();
          const muted = new Set(
            settings
              .filter((s) => s.muteAll || s.mutedConverseIds.some((c) => c.toHexString() === message.converseId))
              .map((s) => s.userId.toHexString()),
          );
          const recipients = await offline(
            ctx.broker,
            targets.filter((id) => !muted.has(id)),
          );
          if (recipients.length === 0) return;

          const preview = message.content.slice(0, 140);
          // Inbox entries written as they are stored (cast here, createdAt set): mongoose's hydration
          // and validation of a document per recipient cost more than the insert itself.
          const converseId = new Types.ObjectId(message.converseId);
          const messageId = new Types.ObjectId(message.id);
          const authorId = new Types.ObjectId(message.authorId);
          const createdAt = new Date();
          await models.notifications
            .insertMany(
              recipients.map((userId) => ({
                _id: new Types.ObjectId(),
                userId: new Types.ObjectId(userId),
                kind,
                converseId,
                messageId,
                seq: message.seq,
                authorId,
                preview,
                createdAt,
              })),
              { ordered: false, lean: true },
            )
            .catch((err: unknown) => {
              if (!isDuplicateKeyError(err) && !(err as { writeErrors?: unknown }).writeErrors) throw err;
            });
          const payload = JSON.stringify({
            type: kind,
            converseId: message.converseId,
            messageId: message.id,
            seq: message.seq,
            authorId: message.authorId,
            preview,
          });
          const [subs, devices] = await Promise.all([
            models.subscriptions.find({ userId: { $in: recipients } }).lean<SubscriptionDoc[]>(),
            app.config.pushProxyUrl
              ? models.devices.find({ userId: { $in: recipients } }).lean<DeviceDoc[]>()
              : Promise.resolve([]),
          ]);
          const jobs: Array<Omit<PushJob, 'id' | 'attempts' | 'enqueuedAt'>> = [
            ...subs.map((s) => ({
              channel: 'webpush' as const,
              userId: s.userId.toHexString(),
              target: { endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth },
              payload,
            })),
            ...devices.map((d) => ({
              channel: 'proxy' as const,
              userId: d.userId.toHexString(),
              target: { platform: d.platform, token: d.token },
              payload,
            })),
          ];
          await queue?.enqueue(jobs);
        },
      },
      /** Reading a converse clears its inbox entries up to the read position. */
      [EVENTS.converseRead]: {
        async handler(ctx: Context<{ converseId: string; userId: string; readSeq: number }>) {
          await models.notifications.deleteMany({
            userId: ctx.params.userId,
            converseId: ctx.params.converseId,
            seq: { $lte: ctx.params.readSeq },
          });
        },
      },
    },
  };
};
