import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuthOptions } from '@im/protocol';
import { BrowserAgent, type TestOidcProvider } from '@im/testkit';
import { startApi, type ApiHarness } from './harness.ts';
import { ssoSteps, startWithProvider, type Err } from './oidc-flow.ts';

describe('single sign-on with OIDC_CREATE_ACCOUNTS=false (pending sign-ins in memory)', () => {
  let api: ApiHarness;
  let idp: TestOidcProvider;
  before(async () => {
    ({ api, idp } = await startWithProvider(import.meta.url, () => ({ OIDC_CREATE_ACCOUNTS: 'false' })));
  });
  after(async () => {
    await api?.close();
    await idp?.close();
  });
  const sso = ssoSteps(
    () => api,
    () => idp,
  );

  it('shows the default label', async () => {
    const res = await api.request<AuthOptions>('GET', '/api/auth/options');
    assert.deepEqual(res.body.oidc, { label: 'Sign in with SSO' });
  });

  it('refuses a provider account linked to no account here, and creates none', async () => {
    idp.addAccount({ login: 'stranger', preferredUsername: 'stranger' });
    assert.equal((await sso.signIn('stranger')).href, `${api.base}/login?oidcError=no_account`);
    const search = await api.request<unknown[]>('GET', '/api/users?q=stranger', { token: (await api.user()).token });
    assert.deepEqual(search.body, []);
  });

  it('lets an account linked in its settings sign in', async () => {
    const local = await api.user('member');
    idp.addAccount({ login: 'member' });
    assert.equal((await sso.link(local.token, 'member')).status, 204);
    assert.equal((await sso.session('member')).user.id, local.id);
  });
});

describe('single sign-on with a provider the outbound guard refuses', () => {
  let api: ApiHarness;
  let idp: TestOidcProvider;
  before(async () => {
    // The provider is on loopback, which only OUTBOUND_ALLOW lets the server reach.
    ({ api, idp } = await startWithProvider(import.meta.url, () => ({ OUTBOUND_ALLOW: '' })));
  });
  after(async () => {
    await api?.close();
    await idp?.close();
  });

  it('sends the browser back to the login screen: the provider cannot be reached', async () => {
    const res = await new BrowserAgent().get(`${api.base}/api/auth/oidc/start`);
    assert.equal(res.status, 302);
    assert.equal(res.location, `${api.base}/login?oidcError=unavailable`);
  });
});

describe('single sign-on when not configured', () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url);
  });
  after(() => api.close());

  it('offers no button, and every single sign-on route is 404 IM_ERR_NOT_FOUND', async () => {
    const options = await api.request<AuthOptions>('GET', '/api/auth/options');
    assert.equal(options.status, 200);
    assert.equal(options.body.oidc, undefined);
    for (const path of ['/api/auth/oidc/start', '/api/auth/oidc/callback?code=x&state=y']) {
      const res = await new BrowserAgent().get(`${api.base}${path}`);
      assert.equal(res.status, 404, path);
      assert.equal((JSON.parse(res.body) as Err).error.code, 'IM_ERR_NOT_FOUND');
    }
    const { token } = await api.user();
    const code = 'A'.repeat(43);
    for (const [path, auth, body] of [
      ['/api/auth/oidc/exchange', undefined, { code }],
      ['/api/auth/oidc/link', token, undefined],
      ['/api/auth/oidc/link/finish', token, { code }],
    ] as const) {
      const res = await api.request<Err>('POST', path, { ...(auth ? { token: auth } : {}), ...(body ? { body } : {}) });
      assert.equal(res.status, 404, path);
      assert.equal(res.body.error.code, 'IM_ERR_NOT_FOUND');
    }
  });
});
