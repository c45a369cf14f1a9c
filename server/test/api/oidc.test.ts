import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuthOptions, Me } from '@im/protocol';
import { BrowserAgent, type TestOidcProvider } from '@im/testkit';
import { Redis } from 'ioredis';
import mongoose, { Types } from 'mongoose';
import type { ApiHarness } from './harness.ts';
import { ssoSteps, startWithProvider, type Err } from './oidc-flow.ts';

const PASSWORD = 'correct horse battery';

describe('single sign-on with OpenID Connect (pending sign-ins in Redis)', () => {
  let api: ApiHarness;
  let idp: TestOidcProvider;
  before(async () => {
    ({ api, idp } = await startWithProvider(import.meta.url, (env) => ({
      OIDC_BUTTON_LABEL: 'Sign in with Test ID',
      ADMIN_USERNAMES: 'ssoadmin,boss',
      // Pending sign-ins and one-time codes live in Redis as in a cluster (any node may take the callback).
      REDIS_URL: env.redisUrl,
      REDIS_KEY_PREFIX: env.redisPrefix,
    })));
  });
  after(async () => {
    await api?.close();
    await idp?.close();
  });
  const sso = ssoSteps(
    () => api,
    () => idp,
  );
  const me = async (token: string) => {
    const res = await api.request<Me>('GET', '/api/users/me', { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  it('offers the button with its label', async () => {
    const res = await api.request<AuthOptions>('GET', '/api/auth/options');
    assert.deepEqual(res.body.oidc, { label: 'Sign in with Test ID' });
  });

  it('sends the browser to the provider with PKCE S256, state and nonce, the state bound to the browser', async () => {
    const agent = new BrowserAgent();
    const url = new URL(await sso.start(agent));
    assert.equal(url.origin, idp.issuer);
    const q = url.searchParams;
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('client_id'), idp.clientId);
    assert.equal(q.get('redirect_uri'), `${api.base}/api/auth/oidc/callback`);
    assert.match(q.get('scope') ?? '', /\bopenid\b/);
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.ok((q.get('state') ?? '').length >= 32);
    assert.ok((q.get('nonce') ?? '').length >= 32);
    assert.equal(agent.cookie(`${api.base}/api/auth/oidc/callback`, 'im_oidc_state'), q.get('state'));
    // Each start is new: nothing is reused between two sign-ins.
    const again = new URL(await sso.start(new BrowserAgent())).searchParams;
    for (const name of ['state', 'nonce', 'code_challenge']) assert.notEqual(again.get(name), q.get(name));
  });

  it('creates an account on the first sign-in, named after the profile, and the exchanged token works', async () => {
    idp.addAccount({ login: 'ada', preferredUsername: 'Ada.Lovelace', name: 'Ada Lovelace', email: 'ada@example.org' });
    const landing = await sso.signIn('ada');
    assert.equal(landing.origin, api.base);
    assert.equal(landing.pathname, '/');
    const code = landing.searchParams.get('oidc')!;
    assert.match(code, /^[A-Za-z0-9_-]{43}$/);
    const res = await sso.exchange(code);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.user.username, 'ada.lovelace');
    assert.equal(res.body.user.nickname, 'Ada Lovelace');
    const mine = await me(res.body.token);
    assert.equal(mine.id, res.body.user.id);
    assert.equal(mine.hasPassword, false);
    assert.equal(mine.ssoLinked, true);
    // The provider vouched for the address (email_verified): it is the account's verified one.
    assert.equal(mine.email, 'ada@example.org');
    assert.equal(mine.emailVerified, true);
  });

  it('keeps an address the provider did not verify, unverified', async () => {
    idp.addAccount({ login: 'unchecked', name: 'Un Checked', email: 'Unchecked@Example.org', emailVerified: false });
    const mine = await me((await sso.session('unchecked')).token);
    assert.equal(mine.email, 'Unchecked@Example.org');
    assert.equal(mine.emailVerified, false);
  });

  it('lands in the same account on the next sign-in', async () => {
    idp.addAccount({ login: 'grace', name: 'Grace Hopper', email: 'grace@example.org' });
    const first = await sso.session('grace');
    const second = await sso.session('grace');
    assert.equal(second.user.id, first.user.id);
    assert.equal(first.user.username, 'grace');
    assert.notEqual(second.token, first.token);
  });

  it('redeems a one-time code once only', async () => {
    idp.addAccount({ login: 'once', preferredUsername: 'once' });
    const code = (await sso.signIn('once')).searchParams.get('oidc')!;
    assert.equal((await sso.exchange(code)).status, 200);
    const again = await sso.exchange(code);
    assert.equal(again.status, 401);
    assert.equal(again.body.error.code, 'IM_ERR_INVALID_CREDENTIALS');
    assert.match(again.body.error.message, /already used/);
    const garbage = await sso.exchange('x');
    assert.equal(garbage.status, 400);
    assert.equal(garbage.body.error.code, 'IM_ERR_VALIDATION');
  });

  it('refuses a callback whose state is unknown, tampered with, or from another browser', async () => {
    idp.addAccount({ login: 'mallory' });
    const agent = new BrowserAgent();
    const callback = new URL(await idp.signIn(agent, await sso.start(agent), 'mallory'));
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    const bad = await agent.get(tampered.href);
    assert.equal(bad.status, 302);
    assert.equal(bad.location, `${api.base}/login?oidcError=state`);
    // Someone else's browser (no state cookie) cannot complete this sign-in.
    const elsewhere = await new BrowserAgent().get(callback.href);
    assert.equal(elsewhere.location, `${api.base}/login?oidcError=state`);
    // And that attempt used the state up: the right browser is refused too.
    assert.equal((await agent.get(callback.href)).location, `${api.base}/login?oidcError=state`);
  });

  it("refuses an ID token whose nonce is not the sign-in's", async () => {
    idp.addAccount({ login: 'eve' });
    const agent = new BrowserAgent();
    const authorization = await sso.start(agent);
    const state = new URL(authorization).searchParams.get('state')!;
    const redis = new Redis(api.env.redisUrl, { keyPrefix: api.env.redisPrefix });
    try {
      const key = `user:oidc:state:${state}`;
      const pending = JSON.parse((await redis.get(key))!) as { nonce: string };
      assert.equal(pending.nonce, new URL(authorization).searchParams.get('nonce'));
      await redis.set(key, JSON.stringify({ ...pending, nonce: 'not-the-nonce-the-provider-saw' }), 'EX', 600);
    } finally {
      redis.disconnect();
    }
    const back = await agent.get(await idp.signIn(agent, authorization, 'eve'));
    assert.equal(back.location, `${api.base}/login?oidcError=provider`);
  });

  it('comes back with a clear reason when the person cancels at the provider', async () => {
    const agent = new BrowserAgent();
    const back = await agent.get(await idp.cancel(agent, await sso.start(agent)));
    assert.equal(back.location, `${api.base}/login?oidcError=denied`);
  });

  it('refuses password login and password changes of an account made by single sign-on', async () => {
    idp.addAccount({ login: 'nopass', preferredUsername: 'nopass' });
    const { token } = await sso.session('nopass');
    const login = await api.request<Err>('POST', '/api/auth/login', {
      body: { username: 'nopass', password: PASSWORD },
    });
    assert.equal(login.status, 403);
    assert.equal(login.body.error.code, 'IM_ERR_NO_PASSWORD');
    const change = await api.request<Err>('POST', '/api/auth/password', {
      token,
      body: { currentPassword: PASSWORD, newPassword: 'another long password' },
    });
    assert.equal(change.status, 403);
    assert.equal(change.body.error.code, 'IM_ERR_NO_PASSWORD');
  });

  it('never hands out a taken or reserved username', async () => {
    const existing = await api.user('taken');
    idp.addAccount({ login: 'dup', preferredUsername: existing.username });
    const dup = await sso.session('dup');
    assert.notEqual(dup.user.username, existing.username);
    assert.match(dup.user.username, /^[a-z0-9_.-]{3,32}$/);
    // "boss" is in ADMIN_USERNAMES: an account the provider made must not become a server admin.
    idp.addAccount({ login: 'boss', preferredUsername: 'Boss', email: 'boss@example.org' });
    const boss = await sso.session('boss');
    assert.notEqual(boss.user.username, 'boss');
    assert.equal((await me(boss.token)).serverAdmin, false);
    // Nothing usable in the profile: still a valid name.
    idp.addAccount({ login: 'anon', name: '李' });
    assert.match((await sso.session('anon')).user.username, /^[a-z0-9_.-]{3,32}$/);
    // A profile named only like a deleted account's tombstone gets a name that is not one.
    idp.addAccount({ login: 'ghost', preferredUsername: 'deleted-ghost', email: 'deleted-ghost@example.org' });
    const ghost = (await sso.session('ghost')).user.username;
    assert.match(ghost, /^[a-z0-9_.-]{3,32}$/);
    assert.doesNotMatch(ghost, /^deleted-/);
  });

  it('links an existing account, which single sign-on then opens', async () => {
    const local = await api.user('linker');
    idp.addAccount({ login: 'linked' });
    const finished = await sso.link(local.token, 'linked');
    assert.equal(finished.status, 204, JSON.stringify(finished.body));
    const mine = await me(local.token);
    assert.equal(mine.ssoLinked, true);
    assert.equal(mine.hasPassword, true);
    assert.equal((await sso.session('linked')).user.id, local.id);
    // The password still works too.
    const login = await api.request('POST', '/api/auth/login', {
      body: { username: local.username, password: PASSWORD },
    });
    assert.equal(login.status, 200);
  });

  it('refuses to link a provider account that is linked to someone else (409)', async () => {
    idp.addAccount({ login: 'shared' });
    const owner = await sso.session('shared');
    const other = await api.user('other');
    const finished = await sso.link(other.token, 'shared');
    assert.equal(finished.status, 409);
    assert.equal(finished.body.error.code, 'IM_ERR_CONFLICT');
    assert.equal((await sso.session('shared')).user.id, owner.user.id);
    assert.equal((await me(other.token)).ssoLinked, false);
    // Behind the check, the unique index: two writes racing cannot both link it.
    const db = await mongoose.createConnection(api.env.mongoUrl).asPromise();
    try {
      const users = db.collection<{ _id: Types.ObjectId; oidc?: object }>('users');
      const linked = await users.findOne({ _id: new Types.ObjectId(owner.user.id) });
      assert.ok(linked?.oidc);
      await assert.rejects(
        users.updateOne({ _id: new Types.ObjectId(other.id) }, { $set: { oidc: linked.oidc } }),
        /duplicate key|E11000/,
      );
    } finally {
      await db.close();
    }
  });

  it('finishes a link only for the user who started it, and only once', async () => {
    const starter = await api.user('starter');
    const victim = await api.user('victim');
    idp.addAccount({ login: 'attacker' });
    const started = await api.request<{ url: string }>('POST', '/api/auth/oidc/link', { token: starter.token });
    const landing = await sso.signIn('attacker', new BrowserAgent(), started.body.url);
    const code = landing.searchParams.get('oidcLink')!;
    // Someone who follows another person's link cannot be linked by it.
    const stolen = await api.request<Err>('POST', '/api/auth/oidc/link/finish', {
      token: victim.token,
      body: { code },
    });
    assert.equal(stolen.status, 404);
    assert.equal(stolen.body.error.code, 'IM_ERR_NOT_FOUND');
    assert.equal((await me(victim.token)).ssoLinked, false);
    // A link ticket works once: the start URL cannot be replayed.
    const replay = await new BrowserAgent().get(`${api.base}${started.body.url}`);
    assert.equal(replay.location, `${api.base}/login?oidcError=expired`);
    // A link code is not a login code.
    const asLogin = await sso.exchange(code);
    assert.equal(asLogin.status, 401);
    const noToken = await api.request<Err>('POST', '/api/auth/oidc/link', {});
    assert.equal(noToken.status, 401);
  });

  it('refuses a deactivated account, and makes a new one after the account is deleted', async () => {
    const admin = await api.request<{ token: string }>('POST', '/api/auth/register', {
      body: { username: 'ssoadmin', password: PASSWORD },
    });
    idp.addAccount({ login: 'leaving', preferredUsername: 'leaving' });
    const leaving = await sso.session('leaving');
    const off = await api.request('POST', `/api/admin/users/${leaving.user.id}/deactivate`, {
      token: admin.body.token,
    });
    assert.equal(off.status, 204);
    assert.equal((await sso.signIn('leaving')).href, `${api.base}/login?oidcError=deactivated`);
    await api.request('POST', `/api/admin/users/${leaving.user.id}/activate`, { token: admin.body.token });
    assert.ok((await sso.signIn('leaving')).searchParams.get('oidc'), 'signs in once activated');
    // Deleting the account frees the provider account: it makes a new account next time.
    idp.addAccount({ login: 'gone', preferredUsername: 'gone' });
    const gone = await sso.session('gone');
    assert.equal((await api.request('DELETE', '/api/users/me', { token: gone.token })).status, 204);
    const fresh = await sso.session('gone');
    assert.notEqual(fresh.user.id, gone.user.id);
    assert.equal(fresh.user.username, 'gone2', "the deleted account's name stays reserved");
  });
});
