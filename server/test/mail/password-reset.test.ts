import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuthOptions, AuthResult, FeedToken, ResetLink } from '@im/protocol';
import type { SmtpSink } from '@im/testkit';
import { startApi, type ApiHarness } from '../api/harness.ts';
import { linkTokens, PUBLIC_URL, startMailApi, tokenIn, verifiedAddress, type User } from './mail-harness.ts';

type ErrorBody = { error: { code: string } };

const NEW_PASSWORD = 'a brand new passphrase';

describe('forgotten password (e-mail on)', () => {
  let api: ApiHarness;
  let sink: SmtpSink;
  before(async () => {
    ({ api, sink } = await startMailApi(import.meta.url, { ADMIN_USERNAMES: 'resetadmin' }));
  });
  after(async () => {
    await api.close();
    await sink.stop();
  });

  const requestReset = (usernameOrEmail: string) =>
    api.request('POST', '/api/auth/password-reset', { body: { usernameOrEmail } });
  const confirm = (token: string, newPassword = NEW_PASSWORD) =>
    api.request<ErrorBody>('POST', '/api/auth/password-reset/confirm', { body: { token, newPassword } });
  const login = (user: User, password: string) =>
    api.request<AuthResult>('POST', '/api/auth/login', { body: { username: user.username, password } });
  const resetMailFor = (email: string) =>
    sink.waitForMail((m) => m.to.includes(email.toLowerCase()) && m.subject === 'Reset your password');

  it('says so in the auth options', async () => {
    const res = await api.request<AuthOptions>('GET', '/api/auth/options');
    assert.equal(res.body.email, true);
    assert.equal(res.body.passwordReset, true);
  });

  it('resets by e-mailed link: the password changes, every session and the feed token end, the link works once', async () => {
    const user = await api.user('reset');
    const email = await verifiedAddress(api, sink, user);
    const feed = await api.request<FeedToken>('POST', '/api/feeds/token', { token: user.token });
    assert.equal(await api.broker.call('user.feedTokenOwner', { token: feed.body.token }), user.id);

    const res = await requestReset(user.username);
    assert.equal(res.status, 202);
    assert.deepEqual(res.body, {});
    const mail = await resetMailFor(email);
    assert.ok(mail.html.includes(`${PUBLIC_URL}/reset-password?token=`));
    const token = tokenIn(mail, '/reset-password');

    assert.equal((await confirm(token)).status, 204);
    assert.equal((await api.request('GET', '/api/users/me', { token: user.token })).status, 401, 'sessions ended');
    assert.equal(await api.broker.call('user.feedTokenOwner', { token: feed.body.token }), null, 'feed token ended');
    assert.equal((await login(user, 'correct horse battery')).status, 401);
    assert.equal((await login(user, NEW_PASSWORD)).status, 200);

    const reused = await confirm(token, 'yet another passphrase');
    assert.equal(reused.status, 410);
    assert.equal(reused.body.error.code, 'IM_ERR_LINK_USED');
    assert.equal((await login(user, NEW_PASSWORD)).status, 200, 'the reused link changed nothing');
  });

  it('finds the account by its verified address, whatever its case', async () => {
    const user = await api.user('byaddr');
    const email = await verifiedAddress(api, sink, user);
    assert.equal((await requestReset(email.toUpperCase())).status, 202);
    const mail = await resetMailFor(email);
    assert.match(mail.text, new RegExp(user.username));
  });

  it('answers known and unknown names alike, and e-mails only the known one', async () => {
    const known = await api.user('known');
    const email = await verifiedAddress(api, sink, known);
    const unverified = await api.user('unver');
    await api.request('PATCH', '/api/users/me', {
      token: unverified.token,
      body: { email: `${unverified.username}@example.org` },
    });
    await sink.waitForMail((m) => m.to.includes(`${unverified.username}@example.org`));
    const before = sink.mails.length;

    const answers = [];
    for (const name of ['nobody-by-this-name', 'nobody@example.org', unverified.username, known.username]) {
      const res = await requestReset(name);
      answers.push({ status: res.status, body: res.body });
    }
    assert.deepEqual(answers, Array(4).fill({ status: 202, body: {} }));
    await resetMailFor(email);
    // The requests were made in order: the known name's e-mail came last.
    assert.equal(sink.mails.length, before + 1, 'unknown names and unverified addresses get nothing');
  });

  it('refuses an expired link, a link made for another account, and a forged one', async () => {
    const user = await api.user('expire');
    const other = await api.user('other');
    const email = await verifiedAddress(api, sink, user);
    await requestReset(user.username);
    const real = tokenIn(await resetMailFor(email), '/reset-password');
    const bound = JSON.parse(Buffer.from(real.split('.')[1]!, 'base64url').toString('utf8')).b as string;

    const hourAgo = () => new Date(Date.now() - 3600_000 - 60_000);
    const expired = await linkTokens(hourAgo).sign('password-reset', { userId: user.id, bound });
    assert.deepEqual(
      [(await confirm(expired)).status, (await confirm(expired)).body.error.code],
      [410, 'IM_ERR_LINK_EXPIRED'],
    );

    // The user's fingerprint on the other account: it does not match that account's password.
    const crossed = await linkTokens().sign('password-reset', { userId: other.id, bound });
    const wrongAccount = await confirm(crossed);
    assert.equal(wrongAccount.status, 410);
    assert.equal(wrongAccount.body.error.code, 'IM_ERR_LINK_USED');

    const forged = await confirm(`${real.slice(0, -4)}AAAA`);
    assert.equal(forged.status, 400);
    assert.equal(forged.body.error.code, 'IM_ERR_LINK_INVALID');

    assert.equal((await login(user, 'correct horse battery')).status, 200, 'nothing changed');
    assert.equal((await confirm(real)).status, 204, 'the real link still works');
  });

  it('lets a server admin make a reset link for an account, and nobody else', async () => {
    const admin = await api.request<AuthResult>('POST', '/api/auth/register', {
      body: { username: 'resetadmin', password: 'correct horse battery' },
    });
    const user = await api.user('admintarget');
    const res = await api.request<ResetLink>('POST', `/api/admin/users/${user.id}/reset-link`, {
      token: admin.body.token,
    });
    assert.equal(res.status, 200);
    assert.ok(res.body.url.startsWith(`${PUBLIC_URL}/reset-password?token=`));
    const token = new URL(res.body.url).searchParams.get('token')!;
    assert.equal((await confirm(token)).status, 204);
    assert.equal((await login(user, NEW_PASSWORD)).status, 200);

    const refused = await api.request<ErrorBody>('POST', `/api/admin/users/${admin.body.user.id}/reset-link`, {
      token: user.token,
    });
    assert.equal(refused.status, 401, 'the user was signed out by the reset');
    const fresh = (await login(user, NEW_PASSWORD)).body.token;
    const forbidden = await api.request<ErrorBody>('POST', `/api/admin/users/${admin.body.user.id}/reset-link`, {
      token: fresh,
    });
    assert.equal(forbidden.status, 403);
  });
});

describe('forgotten password (no SMTP_URL)', () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url, { ADMIN_USERNAMES: 'nosmtpadmin' });
  });
  after(() => api.close());

  it('says e-mail is off, sends nothing, and still lets an admin make a reset link', async () => {
    const options = await api.request<AuthOptions>('GET', '/api/auth/options');
    assert.equal(options.body.email, false);
    assert.equal(options.body.passwordReset, false);

    const user = await api.user('nosmtp');
    const patched = await api.request<{ email: string; emailVerified: boolean }>('PATCH', '/api/users/me', {
      token: user.token,
      body: { email: `${user.username}@example.org` },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.emailVerified, false);
    assert.equal(
      await api.broker.call('mail.send', {
        kind: 'password-reset',
        to: 'x@example.org',
        username: 'x',
        url: 'http://x/reset',
      }),
      false,
      'the mail service has no queue',
    );
    assert.equal(
      (await api.request('POST', '/api/auth/password-reset', { body: { usernameOrEmail: 'x' } })).status,
      202,
    );

    const admin = await api.request<AuthResult>('POST', '/api/auth/register', {
      body: { username: 'nosmtpadmin', password: 'correct horse battery' },
    });
    const link = await api.request<ResetLink>('POST', `/api/admin/users/${user.id}/reset-link`, {
      token: admin.body.token,
    });
    assert.equal(link.status, 200);
    const token = new URL(link.body.url).searchParams.get('token')!;
    assert.equal((await confirm(api, token)).status, 204);
  });
});

const confirm = (api: ApiHarness, token: string) =>
  api.request('POST', '/api/auth/password-reset/confirm', { body: { token, newPassword: NEW_PASSWORD } });
