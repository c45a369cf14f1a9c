import {
  AuditLog,
  createCache,
  EVENTS,
  LinkTokens,
  outboundAllowFor,
  TokenService,
  type AppContext,
  type ServiceEvents,
  type ServiceFactory,
  defineActions,
} from '@im/sdk';
import { adminActions } from './admin-actions.ts';
import { blockActions } from './blocks/block-actions.ts';
import { blockModel } from './blocks/block-model.ts';
import { botActions } from './bot-actions.ts';
import { claimActions } from './claim-actions.ts';
import { accountActions } from './account-actions.ts';
import { directoryActions } from './directory-actions.ts';
import { emailActions } from './email-actions.ts';
import { feedTokenActions } from './feed-token-actions.ts';
import { sessionModel, settingModel, userModel, type UserModel } from './models.ts';
import { OidcAccounts } from './oidc-accounts.ts';
import { oidcActions, type Oidc } from './oidc-actions.ts';
import { OidcClient } from './oidc-client.ts';
import { OidcStore } from './oidc-store.ts';
import { RegistrationPolicy } from './registration.ts';
import { syncServerAdmins } from './server-admins.ts';
import { sessionActions } from './session-actions.ts';
import { Sessions } from './sessions.ts';
import { statusActions } from './status-actions.ts';
import { StatusDeadlines } from './status/status-deadlines.ts';
import { createPasswordHasher } from './password.ts';

/** Single sign-on's parts when OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set (config checks all three). */
function createOidc(app: AppContext, users: UserModel): Oidc | undefined {
  const { oidcIssuer: issuer, oidcClientId: clientId, oidcClientSecret: clientSecret } = app.config;
  if (!issuer || !clientId || !clientSecret) return undefined;
  return {
    client: new OidcClient({
      issuer,
      clientId,
      clientSecret,
      // The operator's own provider: OUTBOUND_ALLOW, not a user-destination list (see outboundGuardFor).
      allow: outboundAllowFor(app.config, 'oidc'),
      timeoutMs: app.config.outboundTimeoutMs,
    }),
    store: new OidcStore(createCache(app.redis, 'user:oidc:')),
    accounts: new OidcAccounts(users, app.config.adminUsernames),
  };
}

/** Accounts: registration, login, sessions, profiles, search, server administration. Signs access tokens. */
export const createUserService: ServiceFactory = (app: AppContext) => {
  const users = userModel(app.mongo!);
  const sessionDocs = sessionModel(app.mongo!);
  const blocks = blockModel(app.mongo!);
  const deps = {
    app,
    users,
    sessionDocs,
    sessions: new Sessions(sessionDocs, users, createCache(app.redis, 'user:session:'), app.config.tokenTtl),
    tokens: new TokenService(app.config.secret, app.config.tokenTtl),
    links: new LinkTokens(app.config.secret),
    passwords: createPasswordHasher(app.config.passwordHashMemoryKib),
    registration: new RegistrationPolicy(settingModel(app.mongo!), app.config.registration),
    audit: new AuditLog(app.mongo!),
    blocks,
  };
  const oidc = createOidc(app, users);
  let stopSeen: (() => Promise<void>) | undefined;
  let deadlines: StatusDeadlines | undefined;
  return {
    name: 'user',
    async started() {
      await Promise.all([users.createIndexes(), sessionDocs.createIndexes(), blocks.createIndexes()]);
      await syncServerAdmins(users, app.config.adminUsernames);
      // Only a cache of this node's own: Redis outlives a restart of the user nodes.
      if (!app.redis) {
        const loaded = await deps.sessions.warm();
        app.logger.debug(`loaded ${loaded} live sessions into the session cache`);
      }
      stopSeen = deps.sessions.keepSeen((err) => app.logger.warn({ err }, 'could not record when sessions were seen'));
      deadlines = new StatusDeadlines(app, users, this.broker);
      deadlines.start();
    },
    async stopped() {
      await deadlines?.stop();
      await stopSeen?.();
      await oidc?.client.close();
    },
    events: {
      // Another user node revoked them: a node without Redis keeps its own cache, which must learn it too.
      [EVENTS.sessionsRevoked]: (ctx) => deps.sessions.forget(ctx.params.sessionIds),
    } satisfies ServiceEvents,
    actions: defineActions('user', {
      ...accountActions(deps),
      ...sessionActions(deps),
      ...directoryActions(deps),
      ...adminActions(deps),
      ...feedTokenActions(deps),
      ...emailActions(deps),
      ...claimActions(deps),
      ...botActions(deps),
      ...statusActions(deps),
      ...blockActions(deps),
      ...oidcActions(deps, oidc),
    }),
  };
};
