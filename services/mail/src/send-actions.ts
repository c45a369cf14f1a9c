import type { ActionParams, ActionResult } from '@im/sdk';
import type { Context } from 'moleculer';
import type { MailDeps } from './deps.ts';
import { mailParams } from './params.ts';
import { renderAccountMail } from './templates/account-mail.ts';

/** Account e-mails other services ask for (the user service: verification and reset links). */
export const sendActions = ({ site, queue }: MailDeps) => ({
  send: {
    visibility: 'public' as const,
    params: mailParams.send,
    async handler(ctx: Context<ActionParams<'mail.send'>>): Promise<ActionResult<'mail.send'>> {
      const q = queue();
      if (!q) return false;
      const { kind, to, username, url } = ctx.params;
      await q.enqueue([{ kind, to, ...renderAccountMail(kind, { site, username, url }) }]);
      return true;
    },
  },
});
