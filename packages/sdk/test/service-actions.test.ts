// Compile-time fences on a service's actions (ServiceActions): the
// `@ts-expect-error` lines below must stay errors, so `tsc -b` fails the day
// one of them is let through. The runtime checks only keep the file a test.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineActions, RATE_LIMITS, type Ctx, type MailRecipient, type ServiceActions } from '../src/index.ts';

type Recipients = Record<string, MailRecipient>;

describe('service actions (type fences)', () => {
  it('holds rateLimit to the table of limits', () => {
    const actions = {
      send: { rateLimit: 'send', handler: () => 'sent' },
      login: { rateLimit: ['login-ip', 'password'], handler: () => 'in' },
      // @ts-expect-error a limit that is not in RATE_LIMITS
      typo: { rateLimit: 'sned', handler: () => 'sent' },
      // @ts-expect-error one unknown name among known ones
      mixed: { rateLimit: ['login-ip', 'pasword'], handler: () => 'in' },
    } satisfies ServiceActions<'demo'>;
    for (const { rateLimit } of [actions.send, actions.login])
      for (const name of typeof rateLimit === 'string' ? [rateLimit] : rateLimit) assert.ok(name in RATE_LIMITS);
  });

  it('holds a handler ActionMap lists to its params and result', async () => {
    const actions = {
      mailRecipients: { handler: recipients },
      // Actions ActionMap does not list take any params.
      ping: { handler: (ctx: Ctx<{ anything: number }>) => ctx.params.anything },
    } satisfies ServiceActions<'user'>;
    assert.deepEqual(await actions.mailRecipients.handler({ params: { ids: ['a'] } } as never), { a: mine });

    const _wrongParams = {
      // @ts-expect-error callers send `ids`, the handler reads `userIds`
      mailRecipients: { handler: recipientsOfUserIds },
    } satisfies ServiceActions<'user'>;
    const _wrongResult = {
      // @ts-expect-error callers expect a record of recipients, not a list
      mailRecipients: { handler: recipientList },
    } satisfies ServiceActions<'user'>;
    // defineActions is the same check, for a factory that cannot end in `satisfies`.
    const defined = defineActions('user', { mailRecipients: { handler: recipients } });
    assert.equal(defined.mailRecipients.handler, recipients);
    // @ts-expect-error callers send `ids`, the handler reads `userIds`
    defineActions('user', { mailRecipients: { handler: recipientsOfUserIds } });
    const _wrongAnswer = {
      // @ts-expect-error 'mail.send' answers whether it queued the mail
      send: { handler: () => 'queued' },
    } satisfies ServiceActions<'mail'>;
  });
});

const recipients = async (ctx: Ctx<{ ids: string[] }>): Promise<Recipients> => ({ [ctx.params.ids[0]!]: mine });
const recipientsOfUserIds = async (ctx: Ctx<{ userIds: string[] }>): Promise<Recipients> => ({
  [ctx.params.userIds[0]!]: mine,
});
const recipientList = async (ctx: Ctx<{ ids: string[] }>) => ctx.params.ids;
const mine: MailRecipient = { email: 'a@example.org', username: 'a', nickname: 'A', emailNotifications: 'off' };
