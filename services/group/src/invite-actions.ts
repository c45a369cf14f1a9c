import { randomBytes } from 'node:crypto';
import type { Group, Invite } from '@im/protocol';
import { announce, callerId, EVENTS, ImError, isDuplicateKeyError, type Params } from '@im/sdk';
import { loadForMember } from './access.ts';
import { groupParams } from './params.ts';
import type { Ctx, GroupDeps } from './deps.ts';
import type { GroupDoc, InviteDoc, MemberDoc } from './models.ts';
import { converseIdsOf, toGroup } from './views.ts';

const DEFAULT_EXPIRY_SEC = 7 * 24 * 3600;
const GONE = 'Invite not found, expired or used up';

export const inviteActions = ({ models, membership }: GroupDeps) => ({
  /** Any member may invite. */
  createInvite: {
    params: groupParams.createInvite,
    rateLimit: 'invite',
    async handler(ctx: Ctx<Params<typeof groupParams.createInvite>>): Promise<Invite> {
      const userId = callerId(ctx);
      await loadForMember(models, ctx.params.groupId, userId);
      const maxUses = ctx.params.maxUses ?? null;
      const invite = await models.invites.create({
        code: randomBytes(9).toString('base64url'),
        groupId: ctx.params.groupId,
        createdBy: userId,
        maxUses,
        remaining: maxUses,
        expiresAt: new Date(Date.now() + (ctx.params.expiresInSec ?? DEFAULT_EXPIRY_SEC) * 1000),
      });
      return { code: invite.code, expiresAt: invite.expiresAt.toISOString(), maxUses };
    },
  },

  /**
   * Joins the caller. A limited invite's use is claimed with one atomic
   * conditional update, so of two concurrent accepts of a one-use code exactly
   * one wins. Accepting a group you are already in uses nothing.
   */
  acceptInvite: {
    params: groupParams.acceptInvite,
    rateLimit: 'invite',
    async handler(ctx: Ctx<Params<typeof groupParams.acceptInvite>>): Promise<Group> {
      const userId = callerId(ctx);
      const now = new Date();
      const invite = await models.invites.findOne({ code: ctx.params.code, expiresAt: { $gt: now } }).lean<InviteDoc>();
      if (!invite) throw new ImError('IM_ERR_NOT_FOUND', GONE);
      const group = await models.groups.findById(invite.groupId).lean<GroupDoc>();
      if (!group) throw new ImError('IM_ERR_NOT_FOUND', GONE);
      const existing = await models.members.findOne({ groupId: group._id, userId }).lean<MemberDoc>();
      if (existing) return toGroup(group, existing.role);

      const limited = invite.maxUses !== null;
      if (limited) {
        const claimed = await models.invites.updateOne(
          { _id: invite._id, remaining: { $gt: 0 }, expiresAt: { $gt: now } },
          { $inc: { remaining: -1, uses: 1 } },
        );
        if (claimed.modifiedCount === 0) throw new ImError('IM_ERR_NOT_FOUND', GONE);
      } else {
        await models.invites.updateOne({ _id: invite._id }, { $inc: { uses: 1 } });
      }

      try {
        await models.members.create({ groupId: group._id, userId, role: 'member' });
      } catch (err) {
        if (limited) await models.invites.updateOne({ _id: invite._id }, { $inc: { remaining: 1, uses: -1 } });
        // The same user accepted twice at once: the other request joined them.
        if (isDuplicateKeyError(err)) return toGroup(group, 'member');
        throw err;
      }
      const updated = await models.groups
        .findByIdAndUpdate(group._id, { $inc: { memberCount: 1 } }, { new: true })
        .lean<GroupDoc>();
      const groupId = group._id.toHexString();
      await membership.forgetMember(groupId, userId);
      announce(ctx, EVENTS.memberJoined, { groupId, userId, role: 'member', converseIds: converseIdsOf(group) });
      return toGroup(updated ?? group, 'member');
    },
  },
});
