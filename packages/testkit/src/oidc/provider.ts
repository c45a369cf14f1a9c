import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Provider, type JWK } from 'oidc-provider';
import type { BrowserAgent } from './browser-agent.ts';
import { loginPages } from './login-page.ts';

/** A person at the test provider: what they type on its login page, and the claims it vouches for. */
export interface TestAccount {
  login: string;
  sub: string;
  name?: string;
  email?: string;
  /** Whether the provider says it checked `email` (`email_verified`); true unless false. */
  emailVerified?: boolean;
  preferredUsername?: string;
}

export interface TestOidcProviderOptions {
  /** The callback URLs the client may name (the gateway under test: <origin>/api/auth/oidc/callback). */
  redirectUris: string[];
  /**
   * true: name, email and preferred_username go into the ID token; false (the
   * provider's default, as many real ones do): only at the userinfo endpoint.
   */
  profileInIdToken?: boolean;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  /** Random per run. */
  clientSecret: string;
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OUTBOUND_ALLOW (loopback) for the server under test. */
  env: Record<string, string>;
  /** Adds an account (a random sub unless given) and answers it. */
  addAccount(account: Omit<TestAccount, 'sub'> & { sub?: string }): TestAccount;
  /**
   * Signs `login` in as a browser would, from the authorization URL the
   * server redirected to, through the login page, up to the redirect back:
   * answers that callback URL (not followed). The agent keeps the provider's
   * cookies, so a second sign-in in the same agent skips the login page.
   */
  signIn(agent: BrowserAgent, authorizationUrl: string, login: string): Promise<string>;
  /** Like signIn, pressing Cancel on the login page. */
  cancel(agent: BrowserAgent, authorizationUrl: string): Promise<string>;
  close(): Promise<void>;
}

const random = (bytes = 24) => randomBytes(bytes).toString('base64url');

/**
 * A real OpenID Connect provider (panva's oidc-provider) on a free loopback
 * port, with one confidential client that must use PKCE, test accounts, and
 * a login page tests can fill in (login and consent at once). Keys, cookie
 * keys and the client secret are made per run. close() stops it.
 */
export async function startOidcProvider(options: TestOidcProviderOptions): Promise<TestOidcProvider> {
  const accounts = new Map<string, TestAccount>();
  const bySub = (sub: string) => [...accounts.values()].find((a) => a.sub === sub);
  // The provider needs its issuer (and so the port) before it can be made: the server starts first.
  let handle: RequestListener = () => undefined;
  const server: Server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = `im-test-${random(6)}`;
  const clientSecret = random(32);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: random(8), use: 'sig', alg: 'RS256' } as JWK;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Grant: 3600, Session: 3600 },
    jwks: { keys: [signingKey] },
    cookies: { keys: [random(32)] },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: options.profileInIdToken !== true,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const account = bySub(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          ...(account.name ? { name: account.name } : {}),
          ...(account.preferredUsername ? { preferred_username: account.preferredUsername } : {}),
          ...(account.email ? { email: account.email, email_verified: account.emailVerified !== false } : {}),
        }),
      };
    },
  });
  // Its own failures are answered to the client as OAuth errors; a test reads them there.
  provider.on('server_error', () => undefined);
  const pages = loginPages(provider, (login) => accounts.get(login));
  const koa = provider.callback();
  handle = (req, res) => {
    pages(req, res).then(
      (served) => {
        if (!served) void koa(req, res);
      },
      (err: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(err));
      },
    );
  };

  /** Follows the provider's redirects; on its login page, `onPage` answers (a form post). */
  const walk = async (
    agent: BrowserAgent,
    start: string,
    onPage: (pageUrl: string) => ReturnType<BrowserAgent['get']>,
  ): Promise<string> => {
    let url = start;
    for (let hop = 0; hop < 10; hop++) {
      if (!url.startsWith(`${issuer}/`)) return url;
      const answer = /\/interaction\/[^/]+$/.test(new URL(url).pathname) ? await onPage(url) : await agent.get(url);
      if (!answer.location)
        throw new Error(`the test provider answered ${answer.status}: ${answer.body.slice(0, 300)}`);
      url = answer.location;
    }
    throw new Error('the test provider redirected too often');
  };

  return {
    issuer,
    clientId,
    clientSecret,
    env: {
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OUTBOUND_ALLOW: '127.0.0.1',
    },
    addAccount: (account) => {
      const added: TestAccount = { ...account, sub: account.sub ?? randomUUID() };
      accounts.set(added.login, added);
      return added;
    },
    signIn: (agent, authorizationUrl, login) =>
      walk(agent, authorizationUrl, (pageUrl) => agent.postForm(`${pageUrl}/login`, { login })),
    cancel: (agent, authorizationUrl) =>
      walk(agent, authorizationUrl, (pageUrl) => agent.postForm(`${pageUrl}/abort`, {})),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
