import type { AppContext, CallerMeta, TokenService } from '@im/sdk';
import type { Context } from 'moleculer';
import type { UserModel } from './models.ts';
import type { PasswordHasher } from './password.ts';

/** What the user service's actions share. */
export interface UserDeps {
  app: AppContext;
  users: UserModel;
  tokens: TokenService;
  passwords: PasswordHasher;
}

export type Ctx<P = Record<string, never>> = Context<P, CallerMeta>;
