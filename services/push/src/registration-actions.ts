import type { PushDevice, PushSubscriptionRef, VapidKey } from '@im/protocol';
import { callerId, type Params } from '@im/sdk';
import type { Ctx, PushDeps } from './deps.ts';
import { pushParams } from './params.ts';

/** Where a user's notifications go: Web Push subscriptions and mobile devices. */
export const registrationActions = ({ models, vapid, outbound }: PushDeps) => ({
  vapidPublicKey: {
    params: pushParams.vapidPublicKey,
    handler: (): VapidKey => ({ key: vapid.publicKey }),
  },

  subscribe: {
    params: pushParams.subscribe,
    async handler(ctx: Ctx<Params<typeof pushParams.subscribe>>): Promise<PushSubscriptionRef> {
      const userId = callerId(ctx);
      const { endpoint, keys } = ctx.params;
      // Only destinations the outbound guard would send to (delivery checks again every time).
      await outbound.check(endpoint, 'endpoint');
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
    async handler(ctx: Ctx<Params<typeof pushParams.unsubscribe>>): Promise<void> {
      await models.subscriptions.deleteOne({ endpoint: ctx.params.endpoint, userId: callerId(ctx) });
    },
  },

  registerDevice: {
    params: pushParams.registerDevice,
    async handler(ctx: Ctx<Params<typeof pushParams.registerDevice>>): Promise<PushDevice> {
      const userId = callerId(ctx);
      const { platform, token } = ctx.params;
      await models.devices.updateOne({ token }, { $set: { userId, platform } }, { upsert: true });
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
