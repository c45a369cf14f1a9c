import assert from 'node:assert/strict';
import type { Me } from '@im/protocol';
import { LinkTokens } from '@im/sdk';
import { startSmtpSink, type ReceivedMail, type SmtpSink, type TestEnv } from '@im/testkit';
import { startApi, type ApiHarness } from '../api/harness.ts';

/** The address links in e-mails start with (PUBLIC_URL of the tests' node). */
export const PUBLIC_URL = 'http://chat.example.org';

/** The harness's SECRET: the tests sign link tokens of their own with it (forged claims, a clock in the past). */
export const linkTokens = (now?: () => Date) => new LinkTokens('s'.repeat(40), now);

export type User = Awaited<ReturnType<ApiHarness['user']>>;

/** A single instance sending e-mail to a sink of its own. */
export async function startMailApi(
  fileUrl: string,
  extra: Record<string, string> | ((env: TestEnv) => Record<string, string>) = {},
): Promise<{ api: ApiHarness; sink: SmtpSink }> {
  const sink = await startSmtpSink();
  const api = await startApi(fileUrl, (env) => ({
    SMTP_URL: sink.url,
    MAIL_FROM: 'Example Chat <chat@example.org>',
    PUBLIC_URL,
    ...(typeof extra === 'function' ? extra(env) : extra),
  }));
  return { api, sink };
}

/** The token of the first link to `path` an e-mail's text carries. */
export function tokenIn(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`${PUBLIC_URL}${path}\\?token=([A-Za-z0-9_.-]+)`).exec(mail.text);
  assert.ok(match, `no ${path} link in: ${mail.text}`);
  return match[1]!;
}

let addresses = 0;

/** A new address for `user`, verified through the e-mailed link. */
export async function verifiedAddress(api: ApiHarness, sink: SmtpSink, user: User): Promise<string> {
  addresses += 1;
  const email = `${user.username}.${addresses}@example.org`;
  const res = await api.request('PATCH', '/api/users/me', { token: user.token, body: { email } });
  assert.equal(res.status, 200);
  const mail = await sink.waitForMail((m) => m.to.includes(email));
  const verified = await api.request('POST', '/api/auth/email/verify', {
    body: { token: tokenIn(mail, '/verify-email') },
  });
  assert.equal(verified.status, 204);
  const me = await api.request<Me>('GET', '/api/users/me', { token: user.token });
  assert.equal(me.body.emailVerified, true);
  return email;
}
