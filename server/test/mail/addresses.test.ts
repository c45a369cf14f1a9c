import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Me, OwnUser, PublicUser } from '@im/protocol';
import type { SmtpSink } from '@im/testkit';
import type { ApiHarness } from '../api/harness.ts';
import { linkTokens, PUBLIC_URL, startMailApi, tokenIn, verifiedAddress } from './mail-harness.ts';

describe('e-mail addresses: verification', () => {
  let api: ApiHarness;
  let sink: SmtpSink;
  before(async () => {
    ({ api, sink } = await startMailApi(import.meta.url));
  });
  after(async () => {
    await api.close();
    await sink.stop();
  });

  it('stores a new address unverified, e-mails a link, and verifies it once', async () => {
    const user = await api.user('addr');
    const email = `Mixed.${user.username}@Example.org`;
    const res = await api.request<OwnUser>('PATCH', '/api/users/me', { token: user.token, body: { email } });
    assert.equal(res.status, 200);
    assert.equal(res.body.email, email);
    assert.equal(res.body.emailVerified, false);
    assert.equal(res.body.emailNotifications, '10m');

    const mail = await sink.waitForMail((m) => m.to.includes(email.toLowerCase()));
    assert.equal(mail.subject, 'Confirm your e-mail address');
    assert.deepEqual(mail.parsed.from?.value, [{ name: 'Example Chat', address: 'chat@example.org' }]);
    assert.ok(mail.html.includes(`${PUBLIC_URL}/verify-email?token=`), 'the HTML carries the link too');
    const token = tokenIn(mail, '/verify-email');

    assert.equal((await api.request('POST', '/api/auth/email/verify', { body: { token } })).status, 204);
    const me = await api.request<Me>('GET', '/api/users/me', { token: user.token });
    assert.equal(me.body.email, email);
    assert.equal(me.body.emailVerified, true);

    const again = await api.request<{ error: { code: string } }>('POST', '/api/auth/email/verify', { body: { token } });
    assert.equal(again.status, 410);
    assert.equal(again.body.error.code, 'IM_ERR_LINK_USED');
  });

  it('shows the address to its owner only', async () => {
    const owner = await api.user('own');
    const other = await api.user('oth');
    await verifiedAddress(api, sink, owner);
    const seen = await api.request<PublicUser & Record<string, unknown>>('GET', `/api/users/${owner.id}`, {
      token: other.token,
    });
    assert.equal(seen.status, 200);
    for (const field of ['email', 'emailVerified', 'emailNotifications'])
      assert.equal(field in seen.body, false, `${field} on someone else's view`);
    const found = await api.request<Array<Record<string, unknown>>>('GET', `/api/users?q=${owner.username}`, {
      token: other.token,
    });
    assert.equal(
      found.body.some((u) => 'email' in u),
      false,
    );
  });

  it('keeps an address to the account that verified it first (case-insensitive): 409 for the second', async () => {
    const first = await api.user('first');
    const second = await api.user('second');
    const email = await verifiedAddress(api, sink, first);
    const shouted = email.toUpperCase();
    assert.equal(
      (await api.request('PATCH', '/api/users/me', { token: second.token, body: { email: shouted } })).status,
      200,
      'an unverified copy may be stored',
    );
    const mail = await sink.waitForMail((m) => m.to.includes(email.toLowerCase()));
    const res = await api.request<{ error: { code: string } }>('POST', '/api/auth/email/verify', {
      body: { token: tokenIn(mail, '/verify-email') },
    });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'IM_ERR_CONFLICT');
    const me = await api.request<Me>('GET', '/api/users/me', { token: second.token });
    assert.equal(me.body.emailVerified, false);
  });

  it('refuses a link for an address replaced since, an expired one, a forged one and one made for another purpose', async () => {
    const user = await api.user('refuse');
    const old = `old.${user.username}@example.org`;
    await api.request('PATCH', '/api/users/me', { token: user.token, body: { email: old } });
    const stale = tokenIn(await sink.waitForMail((m) => m.to.includes(old)), '/verify-email');
    const current = `new.${user.username}@example.org`;
    await api.request('PATCH', '/api/users/me', { token: user.token, body: { email: current } });
    await sink.waitForMail((m) => m.to.includes(current));

    const codeOf = async (token: string) => {
      const res = await api.request<{ error: { code: string } }>('POST', '/api/auth/email/verify', { body: { token } });
      return `${res.status} ${res.body.error.code}`;
    };
    assert.equal(await codeOf(stale), '410 IM_ERR_LINK_USED');

    const dayAndMinuteAgo = () => new Date(Date.now() - 24 * 3600_000 - 60_000);
    const expired = await linkTokens(dayAndMinuteAgo).sign('verify-email', { userId: user.id, bound: current });
    assert.equal(await codeOf(expired), '410 IM_ERR_LINK_EXPIRED');

    const [head, , signature] = expired.split('.');
    const claims = Buffer.from(JSON.stringify({ sub: user.id, aud: 'verify-email', b: current, exp: 9e9 })).toString(
      'base64url',
    );
    assert.equal(await codeOf(`${head}.${claims}.${signature}`), '400 IM_ERR_LINK_INVALID');

    const reset = await linkTokens().sign('password-reset', { userId: user.id, bound: current });
    assert.equal(await codeOf(reset), '400 IM_ERR_LINK_INVALID');
  });

  it('removes an address with an empty one', async () => {
    const user = await api.user('rm');
    await verifiedAddress(api, sink, user);
    const res = await api.request<OwnUser>('PATCH', '/api/users/me', { token: user.token, body: { email: '' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.email, undefined);
    assert.equal(res.body.emailVerified, false);
  });

  it('refuses what is not an address with a 400', async () => {
    const user = await api.user('bad');
    const res = await api.request<{ error: { code: string } }>('PATCH', '/api/users/me', {
      token: user.token,
      body: { email: 'not an address' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'IM_ERR_VALIDATION');
  });
});

describe('e-mail through the Redis stream queue (cluster mode)', () => {
  let api: ApiHarness;
  let sink: SmtpSink;
  before(async () => {
    ({ api, sink } = await startMailApi(import.meta.url, (env) => ({
      REDIS_URL: env.redisUrl,
      REDIS_KEY_PREFIX: env.redisPrefix,
    })));
  });
  after(async () => {
    await api.close();
    await sink.stop();
  });

  it('sends the verification e-mail from the stream', async () => {
    const user = await api.user('stream');
    await verifiedAddress(api, sink, user);
  });
});
