import type { ActionParams, ActionResult } from '@im/sdk';
import type { Context } from 'moleculer';
import type { UserDeps } from './deps.ts';
import type { UserDoc } from './models.ts';
import { userParams } from './params.ts';
import { isDnd, shownStatus } from './status/user-status.ts';

/** Statuses as the gateways and the push service read them (no caller: they decided who may ask). */
export const statusActions = ({ users }: UserDeps) => {
  const statusDocs = (ids: string[]) =>
    ids.length === 0
      ? Promise.resolve([])
      : users
          .find({ _id: { $in: ids }, presenceStatus: { $exists: true } }, { _id: 1, presenceStatus: 1 })
          .lean<UserDoc[]>();

  return {
    statuses: {
      params: userParams.statuses,
      async handler(ctx: Context<ActionParams<'user.statuses'>>): Promise<ActionResult<'user.statuses'>> {
        const now = Date.now();
        const out: ActionResult<'user.statuses'> = {};
        for (const doc of await statusDocs(ctx.params.ids)) {
          const shown = shownStatus(doc.presenceStatus, now);
          if (Object.keys(shown).length > 0) out[doc._id.toHexString()] = shown;
        }
        return out;
      },
    },

    dndAmong: {
      params: userParams.dndAmong,
      async handler(ctx: Context<ActionParams<'user.dndAmong'>>): Promise<string[]> {
        const now = Date.now();
        return (await statusDocs(ctx.params.ids))
          .filter((doc) => isDnd(doc.presenceStatus, now))
          .map((doc) => doc._id.toHexString());
      },
    },
  };
};
