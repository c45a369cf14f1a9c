import type { ActionParams, ActionResult, Ctx } from '@im/sdk';
import type { PushDeps } from './deps.ts';
import { pushParams } from './params.ts';

/** A deleted account's push registrations and inbox. */
export const departureActions = ({ models }: PushDeps) => ({
  /** Account deletion: nothing is sent to the user's browsers or phones again. */
  forgetUser: {
    visibility: 'public' as const,
    params: pushParams.forgetUser,
    async handler(ctx: Ctx<ActionParams<'push.forgetUser'>>): Promise<ActionResult<'push.forgetUser'>> {
      const { userId } = ctx.params;
      await Promise.all([
        models.subscriptions.deleteMany({ userId }),
        models.devices.deleteMany({ userId }),
        models.notifications.deleteMany({ userId }),
        models.settings.deleteMany({ userId }),
        models.levels.deleteMany({ userId }),
      ]);
    },
  },
});
