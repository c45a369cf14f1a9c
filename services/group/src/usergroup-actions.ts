import { RESERVED_HANDLES, type UserGroup } from '@im/protocol';
import {
  announce,
  call,
  callerId,
  EVENTS,
  isDuplicateKeyError,
  type Ctx,
  type Params,
  invalid,
  conflict,
  limitReached,
  notFound,
  defineActions,
} from '@im/sdk';
import { Types } from 'mongoose';
import { loadForMember } from './access.ts';
import type { GroupDeps } from './deps.ts';
import type { UserGroupDoc } from './models.ts';
import { MAX_USER_GROUPS, userGroupParams } from './usergroup-params.ts';

const taken = (handle: string) => conflict(`The handle @${handle} is taken in this group`);

export const toUserGroup = (d: UserGroupDoc): UserGroup => ({
  id: d._id.toHexString(),
  groupId: d.groupId.toHexString(),
  handle: d.handle,
  name: d.name,
  memberIds: d.memberIds.map((id) => id.toHexString()),
});

/**
 * User groups: named sets of members mentioned together as `@handle`. Any
 * member lists them; holders of mentionAll (owner and admins hold every
 * permission) make, edit and delete them. Every change drops the cached
 * handle table (every node: the event) and tells the group's members.
 */
export const userGroupActions = ({ models, store, audit }: GroupDeps) => {
  /** All of a group's user groups, by handle. */
  const listOf = async (groupId: string) =>
    (await models.userGroups.find({ groupId }).sort({ handle: 1 }).lean<UserGroupDoc[]>()).map(toUserGroup);

  const changed = async (ctx: Ctx<object>, groupId: string) => {
    announce(ctx, EVENTS.userGroupsUpdated, { groupId, userGroups: await listOf(groupId) });
  };

  /**
   * A handle must not read as something else: `@all`, `@here`, `@everyone`,
   * or the username of one of the group's members (that member would be
   * mentioned as well). An account of that name that joins later is
   * mentioned together with the user group.
   */
  const refuseClashingHandle = async (ctx: Ctx<object>, groupId: string, handle: string) => {
    if (RESERVED_HANDLES.includes(handle))
      throw invalid(`@${handle} is reserved`, [
        { field: 'handle', type: 'reserved', message: `@${handle} is reserved` },
      ]);
    const found = await call(ctx, 'user.idsByUsernames', { usernames: [handle] });
    const userId = found[handle];
    if (userId && (await models.members.exists({ groupId, userId })))
      throw conflict(`@${handle} is the username of a member of this group`);
  };

  /** Every id must be a member of the group (404 naming none of them otherwise). */
  const refuseNonMembers = async (groupId: string, memberIds: readonly string[]) => {
    if (memberIds.length === 0) return;
    const count = await models.members.countDocuments({ groupId, userId: { $in: memberIds } });
    if (count !== memberIds.length) throw notFound('member');
  };

  return defineActions('group', {
    /** The group's user groups (any member). */
    userGroups: {
      params: userGroupParams.list,
      async handler(ctx: Ctx<Params<typeof userGroupParams.list>>): Promise<UserGroup[]> {
        await loadForMember(models, ctx.params.groupId, callerId(ctx));
        return listOf(ctx.params.groupId);
      },
    },

    createUserGroup: {
      params: userGroupParams.create,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof userGroupParams.create>>): Promise<UserGroup> {
        const actorId = callerId(ctx);
        const { groupId, handle, name, memberIds } = ctx.params;
        await loadForMember(models, groupId, actorId, 'mentionAll');
        await refuseClashingHandle(ctx, groupId, handle);
        await refuseNonMembers(groupId, memberIds);
        if ((await models.userGroups.countDocuments({ groupId })) >= MAX_USER_GROUPS)
          throw limitReached(`A group has at most ${MAX_USER_GROUPS} user groups`);
        let doc: UserGroupDoc;
        try {
          doc = await store.insertUserGroup({
            groupId: new Types.ObjectId(groupId),
            handle,
            name,
            memberIds: memberIds.map((id) => new Types.ObjectId(id)),
          });
        } catch (err) {
          if (isDuplicateKeyError(err)) throw taken(handle);
          throw err;
        }
        await changed(ctx, groupId);
        await audit.record(actorId, {
          action: 'usergroup.create',
          target: { type: 'usergroup', id: doc._id.toHexString() },
          groupId,
          details: { handle, name, members: memberIds.length },
        });
        return toUserGroup(doc);
      },
    },

    /** Renames, changes the handle, or sets the members (the whole list). */
    updateUserGroup: {
      params: userGroupParams.update,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof userGroupParams.update>>): Promise<UserGroup> {
        const actorId = callerId(ctx);
        const { groupId, userGroupId, handle, name, memberIds } = ctx.params;
        if ([handle, name, memberIds].every((v) => v === undefined))
          throw invalid('Nothing to change: give handle, name or memberIds');
        await loadForMember(models, groupId, actorId, 'mentionAll');
        const before = await models.userGroups.findOne({ _id: userGroupId, groupId }).lean<UserGroupDoc>();
        if (!before) throw notFound('user group');
        if (handle !== undefined && handle !== before.handle) await refuseClashingHandle(ctx, groupId, handle);
        if (memberIds) await refuseNonMembers(groupId, memberIds);
        let doc: UserGroupDoc | null;
        try {
          doc = await store.updateUserGroup(
            groupId,
            { _id: userGroupId },
            {
              $set: {
                ...(handle !== undefined ? { handle } : {}),
                ...(name !== undefined ? { name } : {}),
                ...(memberIds ? { memberIds: memberIds.map((id) => new Types.ObjectId(id)) } : {}),
              },
            },
            { new: true },
          );
        } catch (err) {
          if (isDuplicateKeyError(err)) throw taken(handle!);
          throw err;
        }
        if (!doc) throw notFound('user group');
        await changed(ctx, groupId);
        await audit.record(actorId, {
          action: 'usergroup.update',
          target: { type: 'usergroup', id: userGroupId },
          groupId,
          details: { handle: doc.handle, name: doc.name, members: doc.memberIds.length },
        });
        return toUserGroup(doc);
      },
    },

    removeUserGroup: {
      params: userGroupParams.remove,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof userGroupParams.remove>>): Promise<void> {
        const actorId = callerId(ctx);
        const { groupId, userGroupId } = ctx.params;
        await loadForMember(models, groupId, actorId, 'mentionAll');
        const doc = await store.deleteUserGroup(groupId, { _id: userGroupId });
        if (!doc) throw notFound('user group');
        await changed(ctx, groupId);
        await audit.record(actorId, {
          action: 'usergroup.delete',
          target: { type: 'usergroup', id: userGroupId },
          groupId,
          details: { handle: doc.handle, name: doc.name },
        });
      },
    },
  });
};

/**
 * Takes someone who left (or was kicked or banned) off every user group of
 * the group; true when they were on one (the caller drops the cache and tells the group).
 */
export async function leaveUserGroups(
  { models, store }: Pick<GroupDeps, 'models' | 'store'>,
  ctx: Ctx<unknown>,
  groupId: string,
  userId: string,
): Promise<void> {
  if (!(await store.leaveUserGroups(groupId, new Types.ObjectId(userId)))) return;
  const userGroups = (await models.userGroups.find({ groupId }).sort({ handle: 1 }).lean<UserGroupDoc[]>()).map(
    toUserGroup,
  );
  announce(ctx, EVENTS.userGroupsUpdated, { groupId, userGroups });
}
