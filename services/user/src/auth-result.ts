import { type Ctx } from '@im/sdk';
import type { AuthResult } from '@im/protocol';
import type { UserDeps } from './deps.ts';
import type { UserDoc } from './models.ts';
import { toPublicUser } from './views.ts';

/** A new session for the user, and a token naming it: what login, registration and single sign-on answer. */
export async function authResult(
  { sessions, tokens }: Pick<UserDeps, 'sessions' | 'tokens'>,
  ctx: Ctx<object>,
  doc: UserDoc,
): Promise<AuthResult> {
  const session = await sessions.open(doc._id, ctx.meta.ip, ctx.meta.userAgent);
  return {
    token: await tokens.sign(doc._id.toHexString(), session._id.toHexString()),
    user: toPublicUser(doc),
  };
}
