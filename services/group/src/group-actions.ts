import type { Group } from '@im/protocol';
import { announce, callerId, callOnEveryNode, EVENTS, type Params, type Ctx, notFound, forbidden } from '@im/sdk';
import { Types } from 'mongoose';
import { loadForMember, OWNER } from './access.ts';
import { groupParams } from './params.ts';
import { type GroupDeps } from './deps.ts';
import type { GroupDoc, MemberDoc } from './models.ts';
import { removeGroup } from './group-removal.ts';
import { converseIdsOf, toGroup, toGroupInfo } from './views.ts';

/** Most groups listed for one user. */
const MAX_GROUPS_LISTED = 1000;

export const groupActions = ({ models, store, audit, rooms }: GroupDeps) => ({
  create: {
    params: groupParams.create,
    rateLimit: 'group-create' as const,
    async handler(ctx: Ctx<Params<typeof groupParams.create>>): Promise<Group> {
      const userId = callerId(ctx);
      const doc = await store.insertGroup({
        name: ctx.params.name,
        ownerId: userId,
        memberCount: 1,
        panels: [{ name: 'general', type: 'text', converseId: new Types.ObjectId() }],
      });
      let owner: MemberDoc;
      try {
        owner = await store.insertMember({ groupId: doc._id, userId: new Types.ObjectId(userId), role: 'owner' });
      } catch (err) {
        // No transactions: undo the group so no ownerless group is left.
        await store.deleteGroup({ _id: doc._id });
        throw err;
      }
      await rooms.created(doc._id.toHexString(), converseIdsOf(doc), userId, owner.joinedAt);
      announce(ctx, EVENTS.memberJoined, {
        groupId: doc._id.toHexString(),
        userId,
        role: 'owner',
        converseIds: converseIdsOf(doc),
        memberCount: 1,
      });
      return toGroup(doc, owner);
    },
  },

  list: {
    params: groupParams.list,
    async handler(ctx: Ctx): Promise<Group[]> {
      const userId = callerId(ctx);
      const mine = await models.members
        .find({ userId })
        .sort({ joinedAt: 1 })
        .limit(MAX_GROUPS_LISTED)
        .lean<MemberDoc[]>();
      const groups = await models.groups.find({ _id: { $in: mine.map((m) => m.groupId) } }).lean<GroupDoc[]>();
      const byId = new Map(groups.map((g) => [g._id.toHexString(), g]));
      return mine.flatMap((m) => {
        const g = byId.get(m.groupId.toHexString());
        return g ? [toGroup(g, m)] : [];
      });
    },
  },

  get: {
    params: groupParams.get,
    async handler(ctx: Ctx<Params<typeof groupParams.get>>): Promise<Group> {
      const { group, me } = await loadForMember(models, ctx.params.groupId, callerId(ctx));
      return toGroup(group, me);
    },
  },

  /**
   * Renames a group, sets its description, or makes it public or private.
   * Going private turns every panel's web-public switch off. When the group
   * is or was public, every gateway drops its pages and feeds before the
   * answer, so a page of a group gone private is a 404 at once everywhere.
   */
  update: {
    params: groupParams.update,
    async handler(ctx: Ctx<Params<typeof groupParams.update>>): Promise<Group> {
      const actorId = callerId(ctx);
      const { group: before, me } = await loadForMember(models, ctx.params.groupId, actorId, 'manageGroup');
      const { name, visibility, description, language } = ctx.params;
      // What strangers read of the group speaks its language: the owner's and admins' choice, not any manager's.
      if (language !== undefined && me.role === 'member')
        throw forbidden('Only the owner or an admin may set the language');
      const set = {
        ...(name !== undefined ? { name } : {}),
        ...(visibility !== undefined ? { visibility } : {}),
        // In the same write: a private group has no panel on the web.
        ...(visibility === 'private' ? { 'panels.$[].webPublic': false } : {}),
        ...(description ? { description } : {}),
        ...(language !== undefined ? { language } : {}),
      };
      const unset = description === '' ? { description: 1 } : {};
      const group = await store.updateGroup({ _id: ctx.params.groupId }, { $set: set, $unset: unset }, { new: true });
      if (!group) throw notFound('group');
      const wasPublic = before.visibility === 'public';
      // Pages and feeds are cached rendered: a new language must not wait for the next message.
      if (wasPublic || group.visibility === 'public')
        await callOnEveryNode(ctx, 'gateway.forgetPublic', { converseIds: converseIdsOf(group) });
      announce(ctx, EVENTS.groupUpdated, { group: toGroupInfo(group) });
      if (visibility !== undefined && wasPublic !== (visibility === 'public'))
        await audit.record(actorId, {
          action: 'group.visibility',
          target: { type: 'group', id: ctx.params.groupId },
          groupId: ctx.params.groupId,
          details: { name: group.name, visibility },
        });
      return toGroup(group, me);
    },
  },

  remove: {
    params: groupParams.remove,
    async handler(ctx: Ctx<Params<typeof groupParams.remove>>): Promise<void> {
      const userId = callerId(ctx);
      const { group } = await loadForMember(models, ctx.params.groupId, userId, OWNER);
      if (!(await removeGroup({ models, store, rooms }, ctx, ctx.params.groupId, userId))) throw notFound('group');
      await audit.record(userId, {
        action: 'group.delete',
        target: { type: 'group', id: ctx.params.groupId },
        groupId: ctx.params.groupId,
        details: { name: group.name, memberCount: group.memberCount },
      });
    },
  },
});
