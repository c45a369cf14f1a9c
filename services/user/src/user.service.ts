import { TokenService, type AppContext, type ServiceFactory } from '@im/sdk';
import { accountActions } from './account-actions.ts';
import { directoryActions } from './directory-actions.ts';
import { userModel } from './models.ts';
import { createPasswordHasher } from './password.ts';

/** Accounts: registration, login, profiles, search. Signs access tokens. */
export const createUserService: ServiceFactory = (app: AppContext) => {
  const deps = {
    app,
    users: userModel(app.mongo!),
    tokens: new TokenService(app.config.secret, app.config.tokenTtl),
    passwords: createPasswordHasher(app.config.passwordHashMemoryKib),
  };
  return {
    name: 'user',
    async started() {
      await deps.users.createIndexes();
    },
    actions: { ...accountActions(deps), ...directoryActions(deps) },
  };
};
