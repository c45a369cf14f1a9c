import { callerId, type Ctx, notFound, forbidden } from '@im/sdk';
import type { UserDoc, UserModel } from './models.ts';

/** The caller, who must be an active server admin (else 403). */
export async function requireServerAdmin(users: UserModel, ctx: Ctx<object>): Promise<string> {
  const id = callerId(ctx);
  const me = await users.findById(id, { serverAdmin: 1, status: 1 }).lean<UserDoc>();
  if (!me || me.status !== 'active' || me.serverAdmin !== true)
    throw forbidden('Only server administrators may do this');
  return id;
}

/** The account a server admin acts on: any that is not deleted, and not their own. */
export async function loadAdminTarget(
  users: UserModel,
  ctx: Ctx<{ userId: string }>,
  actorId: string,
): Promise<UserDoc> {
  if (ctx.params.userId === actorId) throw forbidden('You cannot change your own account here');
  const doc = await users.findById(ctx.params.userId).lean<UserDoc>();
  if (!doc || doc.status === 'deleted') throw notFound('user');
  return doc;
}
