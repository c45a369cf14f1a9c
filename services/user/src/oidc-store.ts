import { randomBytes } from 'node:crypto';
import type { KvCache } from '@im/sdk';
import { randomNonce, randomPKCECodeVerifier, randomState } from 'openid-client';

/** A sign-in sent to the provider and not back yet, by its `state`. */
export interface PendingLogin {
  nonce: string;
  codeVerifier: string;
  /** The callback URL the authorization request named: the code exchange must name it again. */
  redirectUri: string;
  /** Set when the signed-in user asked to link their account rather than sign in. */
  linkUserId?: string;
}

/** What a one-time code stands for once the provider has vouched for the account. */
export type Outcome = { kind: 'login'; userId: string } | { kind: 'link'; userId: string; issuer: string; sub: string };

const PENDING_TTL_SEC = 10 * 60;
const CODE_TTL_SEC = 60;
const LINK_TICKET_TTL_SEC = 10 * 60;

const randomCode = () => randomBytes(32).toString('base64url');

/**
 * The short-lived records of single sign-on, in the user service's cache
 * (Redis in a cluster, so the callback may land on any node): pending
 * sign-ins by state (10 min), one-time codes the web client redeems (60 s),
 * and link tickets (10 min). Each is taken in one step, so it works once.
 */
export class OidcStore {
  readonly #cache: KvCache;

  constructor(cache: KvCache) {
    this.#cache = cache;
  }

  /** A new pending sign-in and the state that names it. */
  async begin(redirectUri: string, linkUserId?: string): Promise<{ state: string } & PendingLogin> {
    const pending: PendingLogin = {
      nonce: randomNonce(),
      codeVerifier: randomPKCECodeVerifier(),
      redirectUri,
      ...(linkUserId ? { linkUserId } : {}),
    };
    const state = randomState();
    await this.#cache.set(`state:${state}`, JSON.stringify(pending), PENDING_TTL_SEC);
    return { state, ...pending };
  }

  async takePending(state: string): Promise<PendingLogin | undefined> {
    return parsed<PendingLogin>(await this.#cache.take(`state:${state}`));
  }

  async issueCode(outcome: Outcome): Promise<string> {
    const code = randomCode();
    await this.#cache.set(`code:${code}`, JSON.stringify(outcome), CODE_TTL_SEC);
    return code;
  }

  async takeCode(code: string): Promise<Outcome | undefined> {
    return parsed<Outcome>(await this.#cache.take(`code:${code}`));
  }

  /** A ticket for GET /api/auth/oidc/start?link=: the start of a link, made by an authenticated request. */
  async issueLinkTicket(userId: string): Promise<string> {
    const ticket = randomCode();
    await this.#cache.set(`link:${ticket}`, userId, LINK_TICKET_TTL_SEC);
    return ticket;
  }

  takeLinkTicket(ticket: string): Promise<string | undefined> {
    return this.#cache.take(`link:${ticket}`);
  }
}

function parsed<T>(text: string | undefined): T | undefined {
  return text === undefined ? undefined : (JSON.parse(text) as T);
}
