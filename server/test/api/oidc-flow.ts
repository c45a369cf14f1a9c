import assert from 'node:assert/strict';
import type { AuthResult } from '@im/protocol';
import { freePort } from '@im/dev-servers';
import { BrowserAgent, startOidcProvider, type TestEnv, type TestOidcProvider } from '@im/testkit';
import { startApi, type ApiHarness } from './harness.ts';

export type Err = { error: { code: string; message: string } };

/** A node with single sign-on against a real test provider; `extra` adds settings. */
export async function startWithProvider(
  fileUrl: string,
  extra: (env: TestEnv) => Record<string, string> = () => ({}),
): Promise<{ api: ApiHarness; idp: TestOidcProvider }> {
  // The provider must know the callback URL before the node starts, so the node's port is picked first.
  const port = await freePort();
  const idp = await startOidcProvider({ redirectUris: [`http://127.0.0.1:${port}/api/auth/oidc/callback`] });
  try {
    const api = await startApi(fileUrl, (env) => ({ PORT: String(port), ...idp.env, ...extra(env) }));
    return { api, idp };
  } catch (err) {
    await idp.close();
    throw err;
  }
}

/** A person's browser on the node and the provider: start, sign in at the provider, come back. */
export function ssoSteps(api: () => ApiHarness, idp: () => TestOidcProvider) {
  /** GET start: the provider's authorization URL (the browser's state cookie kept in `agent`). */
  const start = async (agent: BrowserAgent, path = '/api/auth/oidc/start'): Promise<string> => {
    const res = await agent.get(`${api().base}${path}`);
    assert.equal(res.status, 302, res.body);
    assert.ok(res.location, 'start redirects');
    return res.location;
  };

  /** The whole way back into the app as `login`: the location the callback sends the browser to. */
  const signIn = async (login: string, agent = new BrowserAgent(), path?: string): Promise<URL> => {
    const callback = await idp().signIn(agent, await start(agent, path), login);
    assert.match(callback, /\/api\/auth\/oidc\/callback\?/);
    const back = await agent.get(callback);
    assert.equal(back.status, 302, back.body);
    return new URL(back.location!);
  };

  const exchange = (code: string) =>
    api().request<AuthResult & Err>('POST', '/api/auth/oidc/exchange', { body: { code } });

  /** Signs in and redeems the code: the session the web client would hold. */
  const session = async (login: string): Promise<AuthResult> => {
    const landing = await signIn(login);
    const code = landing.searchParams.get('oidc');
    assert.ok(code, `signed in: ${landing.href}`);
    const res = await exchange(code);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  /** Links the account of `token` to `login` at the provider: the finish request's answer. */
  const link = async (token: string, login: string) => {
    const started = await api().request<{ url: string }>('POST', '/api/auth/oidc/link', { token });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.match(started.body.url, /^\/api\/auth\/oidc\/start\?link=/);
    const landing = await signIn(login, new BrowserAgent(), started.body.url);
    const code = landing.searchParams.get('oidcLink');
    assert.ok(code, `came back to link: ${landing.href}`);
    return api().request<Err>('POST', '/api/auth/oidc/link/finish', { token, body: { code } });
  };

  return { start, signIn, exchange, session, link };
}
