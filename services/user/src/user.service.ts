import { AuditLog, createCache, TokenService, type AppContext, type ServiceFactory } from '@im/sdk';
import { adminActions } from './admin-actions.ts';
import { accountActions } from './account-actions.ts';
import { directoryActions } from './directory-actions.ts';
import { feedTokenActions } from './feed-token-actions.ts';
import { sessionModel, settingModel, userModel } from './models.ts';
import { RegistrationPolicy } from './registration.ts';
import { sessionActions } from './session-actions.ts';
import { Sessions } from './sessions.ts';
import { createPasswordHasher } from './password.ts';

/** Accounts: registration, login, sessions, profiles, search, server administration. Signs access tokens. */
export const createUserService: ServiceFactory = (app: AppContext) => {
  const users = userModel(app.mongo!);
  const sessionDocs = sessionModel(app.mongo!);
  const deps = {
    app,
    users,
    sessionDocs,
    sessions: new Sessions(sessionDocs, users, createCache(app.redis, 'user:session:'), app.config.tokenTtl),
    tokens: new TokenService(app.config.secret, app.config.tokenTtl),
    passwords: createPasswordHasher(app.config.passwordHashMemoryKib),
    registration: new RegistrationPolicy(settingModel(app.mongo!), app.config.registration),
    audit: new AuditLog(app.mongo!),
  };
  return {
    name: 'user',
    async started() {
      await Promise.all([users.createIndexes(), sessionDocs.createIndexes()]);
    },
    actions: {
      ...accountActions(deps),
      ...sessionActions(deps),
      ...directoryActions(deps),
      ...adminActions(deps),
      ...feedTokenActions(deps),
    },
  };
};
