import type { PushDevice, PushSubscriptionInfo, PushSubscriptionRef, VapidKey } from '@im/protocol';
import { callerId, type Params, type Ctx } from '@im/sdk';
import type { PushDeps } from './deps.ts';
import type { SubscriptionDoc } from './models.ts';
import { pushParams } from './params.ts';
import { register, REGISTRATIONS_PER_USER } from './registrations.ts';
import { toSubscriptionInfo } from './views.ts';

/** Where a user's notifications go: Web Push subscriptions and mobile devices. */
export const registrationActions = ({ models, vapid, outbound, targetsChanged }: PushDeps) => ({
  vapidPublicKey: {
    params: pushParams.vapidPublicKey,
    handler: (): VapidKey => ({ key: vapid.publicKey }),
  },

  subscribe: {
    params: pushParams.subscribe,
    rateLimit: 'push-subscribe' as const,
    async handler(ctx: Ctx<Params<typeof pushParams.subscribe>>): Promise<PushSubscriptionRef> {
      const userId = callerId(ctx);
      const { endpoint, keys } = ctx.params;
      // Only destinations the outbound guard would send to (delivery checks again every time).
      await outbound.check(endpoint, 'endpoint');
      await register(models.subscriptions, userId, { endpoint }, { p256dh: keys.p256dh, auth: keys.auth });
      targetsChanged();
      return { endpoint };
    },
  },

  /** My Web Push subscriptions, oldest first. */
  subscriptions: {
    params: pushParams.subscriptions,
    async handler(ctx: Ctx): Promise<PushSubscriptionInfo[]> {
      const docs = await models.subscriptions
        .find({ userId: callerId(ctx) }, { endpoint: 1, createdAt: 1 })
        .sort({ createdAt: 1, _id: 1 })
        .limit(REGISTRATIONS_PER_USER)
        .lean<Array<Pick<SubscriptionDoc, '_id' | 'endpoint' | 'createdAt'>>>();
      return docs.map(toSubscriptionInfo);
    },
  },

  unsubscribe: {
    params: pushParams.unsubscribe,
    async handler(ctx: Ctx<Params<typeof pushParams.unsubscribe>>): Promise<void> {
      await models.subscriptions.deleteOne({ endpoint: ctx.params.endpoint, userId: callerId(ctx) });
    },
  },

  registerDevice: {
    params: pushParams.registerDevice,
    rateLimit: 'push-subscribe' as const,
    async handler(ctx: Ctx<Params<typeof pushParams.registerDevice>>): Promise<PushDevice> {
      const { platform, token } = ctx.params;
      await register(models.devices, callerId(ctx), { token }, { platform });
      targetsChanged();
      return { platform, token };
    },
  },

  removeDevice: {
    params: pushParams.removeDevice,
    async handler(ctx: Ctx<Params<typeof pushParams.removeDevice>>): Promise<void> {
      await models.devices.deleteOne({ token: ctx.params.token, userId: callerId(ctx) });
    },
  },
});
