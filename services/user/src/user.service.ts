import { createCache, TokenService, type AppContext, type ServiceFactory } from '@im/sdk';
import { accountActions } from './account-actions.ts';
import { directoryActions } from './directory-actions.ts';
import { sessionModel, userModel } from './models.ts';
import { sessionActions } from './session-actions.ts';
import { Sessions } from './sessions.ts';
import { createPasswordHasher } from './password.ts';

/** Accounts: registration, login, sessions, profiles, search. Signs access tokens. */
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
  };
  return {
    name: 'user',
    async started() {
      await Promise.all([users.createIndexes(), sessionDocs.createIndexes()]);
    },
    actions: { ...accountActions(deps), ...sessionActions(deps), ...directoryActions(deps) },
  };
};
