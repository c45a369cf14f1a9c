import type { AppContext, AuditLog, LinkTokens, TokenService } from '@im/sdk';
import type { BlockModel } from './blocks/block-model.ts';
import type { SessionModel, UserModel } from './models.ts';
import type { PasswordHasher } from './password.ts';
import type { RegistrationPolicy } from './registration.ts';
import type { Sessions } from './sessions.ts';

/** What the user service's actions share. */
export interface UserDeps {
  app: AppContext;
  users: UserModel;
  sessionDocs: SessionModel;
  sessions: Sessions;
  tokens: TokenService;
  /** Signs and checks the links e-mails carry (verification, password reset, unsubscribe). */
  links: LinkTokens;
  passwords: PasswordHasher;
  registration: RegistrationPolicy;
  audit: AuditLog;
  blocks: BlockModel;
}
