import type { AuthResult, OidcLink } from '@im/protocol';
import {
  callerId,
  ImError,
  OutboundRefusedError,
  type ActionParams,
  type ActionResult,
  type Params,
  type Ctx,
  defineActions,
} from '@im/sdk';
import { authResult } from './auth-result.ts';
import type { UserDeps } from './deps.ts';
import type { UserDoc } from './models.ts';
import type { OidcAccounts } from './oidc-accounts.ts';
import type { OidcClient } from './oidc-client.ts';
import type { OidcStore } from './oidc-store.ts';
import { userParams } from './params.ts';

/** Single sign-on's parts, present when OIDC_ISSUER (with its client id and secret) is set. */
export interface Oidc {
  client: OidcClient;
  store: OidcStore;
  accounts: OidcAccounts;
}

/**
 * Why a sign-in came back to the app without an account, as the web client
 * reads it from `/login?oidcError=`: short words, never the provider's text.
 */
export type OidcFailure = 'state' | 'expired' | 'denied' | 'provider' | 'unavailable' | 'no_account' | 'deactivated';

const failed = (reason: OidcFailure) => ({ location: `/login?oidcError=${reason}` });

/** A network failure or the outbound guard's refusal, rather than the provider saying no. */
function unreachable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof OutboundRefusedError || e.name === 'TimeoutError' || e.name === 'AbortError') return true;
    if (e instanceof TypeError && e.message === 'fetch failed') return true;
  }
  return false;
}

/**
 * OpenID Connect sign-in and linking. The browser goes start -> provider ->
 * callback (gateway routes calling oidcStart / oidcCallback), then the web
 * client redeems the one-time code the callback put in the URL: tokens never
 * travel in a URL. A link is finished by the linking user's own client, with
 * their token, so nobody can have their provider account linked to an account
 * here by following someone else's link.
 */
export const oidcActions = (deps: UserDeps, oidc: Oidc | undefined) => {
  const { app, users } = deps;
  const log = app.logger;
  const configured = (): Oidc => {
    if (!oidc) throw new ImError('IM_ERR_NOT_FOUND', 'Single sign-on is not configured on this server');
    return oidc;
  };

  return defineActions('user', {
    /** For the gateway's GET /api/auth/oidc/start: a new pending sign-in (or link), and the provider's URL. */
    oidcStart: {
      visibility: 'public' as const,
      params: userParams.oidcStart,
      rateLimit: 'login-ip',
      async handler(ctx: Ctx<ActionParams<'user.oidcStart'>>): Promise<ActionResult<'user.oidcStart'>> {
        const { client, store } = configured();
        let linkUserId: string | undefined;
        if (ctx.params.link) {
          linkUserId = await store.takeLinkTicket(ctx.params.link);
          if (!linkUserId) return failed('expired');
        }
        const pending = await store.begin(ctx.params.redirectUri, linkUserId);
        try {
          return { location: await client.authorizationUrl(ctx.params.redirectUri, pending), state: pending.state };
        } catch (err) {
          log.warn({ err }, 'single sign-on: the provider cannot be reached (discovery failed)');
          return failed('unavailable');
        }
      },
    },

    /**
     * For the gateway's GET /api/auth/oidc/callback. The state must be one
     * this server issued, not used before, and the one the browser's cookie
     * holds; then the code is redeemed and the ID token checked.
     */
    oidcCallback: {
      visibility: 'public' as const,
      params: userParams.oidcCallback,
      async handler(ctx: Ctx<ActionParams<'user.oidcCallback'>>): Promise<ActionResult<'user.oidcCallback'>> {
        const { client, store, accounts } = configured();
        const query = new URLSearchParams(ctx.params.query);
        const state = query.get('state') ?? '';
        const pending = state ? await store.takePending(state) : undefined;
        // Issued here, not used before, held by this browser, and back at the address it left from.
        if (!pending || ctx.params.boundState !== state || pending.redirectUri !== ctx.params.redirectUri)
          return failed('state');
        const error = query.get('error');
        if (error) return failed(error === 'access_denied' ? 'denied' : 'provider');
        let identity;
        try {
          // The URL the provider was told to return to, with its answer: what the code exchange must name.
          identity = await client.identity(new URL(`${pending.redirectUri}?${ctx.params.query}`), {
            state,
            nonce: pending.nonce,
            codeVerifier: pending.codeVerifier,
          });
        } catch (err) {
          log.warn({ err }, 'single sign-on: the provider answer was refused');
          return failed(unreachable(err) ? 'unavailable' : 'provider');
        }
        const { issuer, sub } = identity;
        if (pending.linkUserId) {
          const code = await store.issueCode({ kind: 'link', userId: pending.linkUserId, issuer, sub });
          return { location: `/?oidcLink=${code}` };
        }
        let user = await accounts.find(issuer, sub);
        if (!user) {
          if (!app.config.oidcCreateAccounts) return failed('no_account');
          let profile;
          try {
            profile = await identity.profile();
          } catch (err) {
            log.warn({ err }, 'single sign-on: the userinfo endpoint failed');
            return failed(unreachable(err) ? 'unavailable' : 'provider');
          }
          user = await accounts.create(issuer, sub, profile);
        }
        if (user.status !== 'active') return failed('deactivated');
        return { location: `/?oidc=${await store.issueCode({ kind: 'login', userId: user._id.toHexString() })}` };
      },
    },

    /** The web client's half of a sign-in: the one-time code for a session, once, within 60 s. */
    oidcExchange: {
      params: userParams.oidcExchange,
      rateLimit: 'login-ip',
      async handler(ctx: Ctx<Params<typeof userParams.oidcExchange>>): Promise<AuthResult> {
        const { store } = configured();
        const outcome = await store.takeCode(ctx.params.code);
        const doc =
          outcome?.kind === 'login'
            ? await users.findOne({ _id: outcome.userId, status: { $ne: 'deleted' } }).lean<UserDoc>()
            : null;
        if (!doc)
          throw new ImError(
            'IM_ERR_INVALID_CREDENTIALS',
            'This sign-in code is unknown, expired or already used: sign in again',
          );
        if (doc.status === 'deactivated') throw new ImError('IM_ERR_ACCOUNT_DEACTIVATED');
        return authResult(deps, ctx, doc);
      },
    },

    /** Starts linking the caller's account: a path that sends their browser on to the provider. */
    oidcLink: {
      params: userParams.oidcLink,
      rateLimit: 'login-ip',
      async handler(ctx: Ctx): Promise<OidcLink> {
        const userId = callerId(ctx);
        const { store } = configured();
        if (!(await users.exists({ _id: userId, status: 'active' }))) throw new ImError('IM_ERR_UNAUTHORIZED');
        return { url: `/api/auth/oidc/start?link=${await store.issueLinkTicket(userId)}` };
      },
    },

    /** Finishes a link with the code the callback gave; only the user who started it can. */
    oidcLinkFinish: {
      params: userParams.oidcLinkFinish,
      async handler(ctx: Ctx<Params<typeof userParams.oidcLinkFinish>>): Promise<void> {
        const userId = callerId(ctx);
        const { store, accounts } = configured();
        const outcome = await store.takeCode(ctx.params.code);
        if (outcome?.kind !== 'link' || outcome.userId !== userId)
          throw new ImError('IM_ERR_NOT_FOUND', 'This link code is unknown, expired or already used: link again');
        await accounts.link(userId, outcome.issuer, outcome.sub);
      },
    },
  });
};
