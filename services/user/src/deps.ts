import type { AppContext, CallerMeta, TokenService } from '@im/sdk';
import type { Context } from 'moleculer';
import type { SessionModel, UserModel } from './models.ts';
import type { PasswordHasher } from './password.ts';
import type { Sessions } from './sessions.ts';

/** What the user service's actions share. */
export interface UserDeps {
  app: AppContext;
  users: UserModel;
  sessionDocs: SessionModel;
  sessions: Sessions;
  tokens: TokenService;
  passwords: PasswordHasher;
}

export type Ctx<P = Record<string, never>> = Context<P, CallerMeta>;
