import { OutboundGuard } from '@im/sdk';
import * as oidc from 'openid-client';
import { fetch as undiciFetch } from 'undici';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** OUTBOUND_ALLOW and OUTBOUND_TIMEOUT_MS: the provider is reached through the outbound guard. */
  allow: readonly string[];
  timeoutMs: number;
}

/** What one authorization request needs to be checked on its way back. */
export interface OidcChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** What a new account is named after; any of it may be missing. */
export interface OidcProfile {
  preferredUsername?: string;
  email?: string;
  /** The provider says it checked `email` (its `email_verified` claim is true). */
  emailVerified?: boolean;
  name?: string;
}

/** The provider's account that signed in, checked: ID token signature, issuer, audience, nonce, expiry. */
export interface OidcIdentity {
  issuer: string;
  sub: string;
  /** The profile claims, from the ID token or else the userinfo endpoint (asked only when called). */
  profile(): Promise<OidcProfile>;
}

const SCOPE = 'openid profile email';
/** Discovered metadata is fetched again after this long (a provider may move its endpoints). */
const METADATA_TTL_MS = 60 * 60 * 1000;

/**
 * The relying party: discovery, the authorization URL (PKCE S256, state,
 * nonce), and the code exchange with the ID token checked against the
 * provider's JWKS. Every request to the provider goes through the outbound
 * guard, like any other destination the server is configured to reach.
 */
export class OidcClient {
  readonly #settings: OidcSettings;
  readonly #guard: OutboundGuard;
  #metadata: { config: Promise<oidc.Configuration>; at: number } | undefined;

  constructor(settings: OidcSettings) {
    this.#settings = settings;
    this.#guard = new OutboundGuard({ allow: settings.allow, timeoutMs: settings.timeoutMs });
  }

  /** The provider's authorization endpoint with this request's parameters. */
  async authorizationUrl(redirectUri: string, checks: OidcChecks): Promise<string> {
    const config = await this.#config();
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    }).href;
  }

  /**
   * Checks the provider's answer at `callbackUrl` (state, iss), redeems the
   * code with the PKCE verifier and the client secret, and verifies the ID
   * token (signature against the JWKS, issuer, audience, nonce, expiry).
   * Throws on anything wrong.
   */
  async identity(callbackUrl: URL, checks: OidcChecks): Promise<OidcIdentity> {
    const config = await this.#config();
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('the provider answered without an ID token');
    const fromToken = profileOf(claims);
    return {
      issuer: config.serverMetadata().issuer,
      sub: claims.sub,
      profile: async () => {
        if (fromToken.preferredUsername || fromToken.email || fromToken.name) return fromToken;
        // Providers that keep the ID token small give the profile at the userinfo endpoint.
        if (!config.serverMetadata().userinfo_endpoint) return fromToken;
        return profileOf(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub));
      },
    };
  }

  close(): Promise<void> {
    return this.#guard.close();
  }

  /** The discovered configuration; a failed discovery is retried on the next sign-in, not kept. */
  #config(): Promise<oidc.Configuration> {
    const now = Date.now();
    if (!this.#metadata || now - this.#metadata.at > METADATA_TTL_MS) {
      const config = this.#discover();
      this.#metadata = { config, at: now };
      config.catch(() => {
        if (this.#metadata?.config === config) this.#metadata = undefined;
      });
    }
    return this.#metadata.config;
  }

  #discover(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret, timeoutMs } = this.#settings;
    const dispatcher = this.#guard.dispatcher;
    // undici's own fetch, so the guard's dispatcher (address checks, timeouts, pooling) carries every request.
    const guardedFetch: oidc.CustomFetch = (url, options) =>
      undiciFetch(url, { ...options, dispatcher } as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>;
    return oidc.discovery(new URL(issuer), clientId, clientSecret, oidc.ClientSecretBasic(clientSecret), {
      [oidc.customFetch]: guardedFetch,
      timeout: Math.ceil(timeoutMs / 1000),
      execute: [
        // Verify the ID token's signature too, not only trust the TLS channel it came over.
        oidc.enableNonRepudiationChecks,
        // http issuers are accepted by the configuration (local providers, tests); https otherwise.
        ...(issuer.startsWith('http://') ? [oidc.allowInsecureRequests] : []),
      ],
    });
  }
}

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : undefined;

function profileOf(claims: Record<string, unknown>): OidcProfile {
  const preferredUsername = text(claims.preferred_username, 256);
  const email = text(claims.email, 256);
  const name = text(claims.name, 256);
  return {
    ...(preferredUsername ? { preferredUsername } : {}),
    ...(email ? { email, ...(claims.email_verified === true ? { emailVerified: true } : {}) } : {}),
    ...(name ? { name } : {}),
  };
}
