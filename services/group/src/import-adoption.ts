import { announce, EVENTS, type Ctx } from '@im/sdk';
import type { ServiceSchema } from 'moleculer';
import type { GroupDeps } from './deps.ts';
import type { GroupDoc, MemberDoc } from './models.ts';
import { groupParams } from './params.ts';
import { converseIdsSeenBy } from './views.ts';

const CHUNK = 500;

/**
 * A group an import wrote straight into the database becomes known to the
 * running platform as if its members had joined one by one: the room index
 * learns the group, its panels and members; cached answers about its
 * converses are dropped; and each member's `group.member.joined` moves their
 * open sockets into its rooms and shows it in their app. Safe to repeat.
 */
export const importAdoptionActions = ({ models, store, rooms }: GroupDeps): ServiceSchema['actions'] => ({
  adoptImported: {
    visibility: 'public' as const,
    params: groupParams.adoptImported,
    async handler(ctx: Ctx<{ groupId: string }>): Promise<boolean> {
      const group = await models.groups.findById(ctx.params.groupId).lean<GroupDoc>();
      if (!group) return false;
      const groupId = group._id.toHexString();
      const ownerId = group.ownerId.toHexString();
      // Written straight into the database: whatever was cached about it meanwhile goes.
      await store.adoptGroup(group);
      const owner = await models.members.findOne({ groupId: group._id, userId: group.ownerId }).lean<MemberDoc>();
      const open = group.panels.filter((p) => !p.private).map((p) => p.converseId.toHexString());
      await rooms.created(groupId, open, ownerId, owner?.joinedAt ?? new Date());
      for (const p of group.panels.filter((x) => x.private))
        await rooms.panelAdded(groupId, p.converseId.toHexString(), true);
      let lastId = undefined as MemberDoc['_id'] | undefined;
      for (;;) {
        const page = await models.members
          .find({ groupId: group._id, ...(lastId ? { _id: { $gt: lastId } } : {}) })
          .sort({ _id: 1 })
          .limit(CHUNK)
          .lean<MemberDoc[]>();
        if (page.length === 0) break;
        lastId = page.at(-1)!._id;
        for (const member of page) {
          const userId = member.userId.toHexString();
          await store.adoptMember(groupId, userId);
          if (userId !== ownerId) await rooms.joined(groupId, userId, member.joinedAt);
          announce(ctx, EVENTS.memberJoined, {
            groupId,
            userId,
            role: member.role,
            converseIds: converseIdsSeenBy(group, member),
            memberCount: group.memberCount,
          });
        }
      }
      return true;
    },
  },
});
