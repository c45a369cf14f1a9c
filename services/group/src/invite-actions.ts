import { randomBytes } from 'node:crypto';
import type { Group, Invite } from '@im/protocol';
import {
  call,
  callerId,
  ImError,
  type ActionParams,
  type ActionResult,
  type Params,
  type Ctx,
  notFound,
  forbidden,
  defineActions,
} from '@im/sdk';
import { loadForMember } from './access.ts';
import { groupParams } from './params.ts';
import type { GroupDeps } from './deps.ts';
import type { GroupDoc, InviteDoc, MemberDoc } from './models.ts';
import { addMember, bannedError, isBanned } from './member-join.ts';
import { toGroup, toInvite } from './views.ts';

const DEFAULT_EXPIRY_SEC = 7 * 24 * 3600;
const GONE = 'Invite not found, expired or used up';
/** Most invites one list shows. */
const MAX_INVITES_LISTED = 500;

export const inviteActions = ({ models, store, audit, rooms }: GroupDeps) => {
  /** An invite that can still be used (not expired, revoked or used up), or null. */
  const liveInvite = async (code: string, now: Date) => {
    const invite = await models.invites.findOne({ code, expiresAt: { $gt: now } }).lean<InviteDoc>();
    return invite && (invite.remaining === null || invite.remaining > 0) ? invite : null;
  };

  return defineActions('group', {
    /** Holders of createInvites (every member unless `@everyone` lost it). */
    createInvite: {
      params: groupParams.createInvite,
      rateLimit: 'invite',
      async handler(ctx: Ctx<Params<typeof groupParams.createInvite>>): Promise<Invite> {
        const userId = callerId(ctx);
        await loadForMember(models, ctx.params.groupId, userId, 'createInvites');
        const maxUses = ctx.params.maxUses ?? null;
        const invite = await models.invites.create({
          code: randomBytes(9).toString('base64url'),
          groupId: ctx.params.groupId,
          createdBy: userId,
          maxUses,
          remaining: maxUses,
          createdAt: new Date(),
          expiresAt: new Date(Date.now() + (ctx.params.expiresInSec ?? DEFAULT_EXPIRY_SEC) * 1000),
        });
        return toInvite(invite.toObject());
      },
    },

    /** The group's invites that have not expired, newest first (holders of manageGroup). */
    listInvites: {
      params: groupParams.listInvites,
      async handler(ctx: Ctx<Params<typeof groupParams.listInvites>>): Promise<Invite[]> {
        await loadForMember(models, ctx.params.groupId, callerId(ctx), 'manageGroup');
        const docs = await models.invites
          .find({ groupId: ctx.params.groupId, expiresAt: { $gt: new Date() } })
          .sort({ _id: -1 })
          .limit(MAX_INVITES_LISTED)
          .lean<InviteDoc[]>();
        return docs.map(toInvite);
      },
    },

    /** An admin, or the invite's creator: the code stops working at once (accepting it is 404). */
    revokeInvite: {
      params: groupParams.revokeInvite,
      rateLimit: 'invite',
      async handler(ctx: Ctx<Params<typeof groupParams.revokeInvite>>): Promise<void> {
        const userId = callerId(ctx);
        const { permissions } = await loadForMember(models, ctx.params.groupId, userId);
        const invite = await models.invites
          .findOne({ code: ctx.params.code, groupId: ctx.params.groupId })
          .lean<InviteDoc>();
        if (!invite) throw notFound('invite');
        const isCreator = invite.createdBy.toHexString() === userId;
        if (!isCreator && !permissions.includes('manageGroup'))
          throw forbidden('Only whoever made the invite, or a holder of manageGroup, may revoke it');
        const { deletedCount } = await models.invites.deleteOne({ _id: invite._id });
        if (deletedCount === 0) throw notFound('invite');
        await audit.record(userId, {
          action: 'invite.revoke',
          target: { type: 'invite', id: invite.code },
          groupId: ctx.params.groupId,
          details: { createdBy: invite.createdBy.toHexString(), uses: invite.uses },
        });
      },
    },

    /** The join screen of an invite link: the group and who invited, for anyone holding a live code. */
    previewInvite: {
      params: groupParams.previewInvite,
      async handler(ctx: Ctx<ActionParams<'group.previewInvite'>>): Promise<ActionResult<'group.previewInvite'>> {
        const invite = await liveInvite(ctx.params.code, new Date());
        const group = invite && (await models.groups.findById(invite.groupId).lean<GroupDoc>());
        if (!invite || !group) throw new ImError('IM_ERR_NOT_FOUND', GONE);
        const inviterId = invite.createdBy.toHexString();
        const inviter = (await call(ctx, 'user.getMany', { ids: [inviterId] }))[inviterId];
        return {
          group: {
            id: group._id.toHexString(),
            name: group.name,
            memberCount: group.memberCount,
            language: group.language ?? 'en',
            ...(group.description ? { description: group.description } : {}),
            ...(group.icon ? { icon: group.icon.toHexString() } : {}),
          },
          ...(inviter ? { inviter } : {}),
          expiresAt: invite.expiresAt.toISOString(),
        };
      },
    },

    /** For registration by invite: whether a code could be accepted now. */
    checkInvite: {
      visibility: 'public' as const,
      params: groupParams.checkInvite,
      async handler(ctx: Ctx<ActionParams<'group.checkInvite'>>): Promise<ActionResult<'group.checkInvite'>> {
        const invite = await liveInvite(ctx.params.code, new Date());
        if (!invite || !(await models.groups.exists({ _id: invite.groupId }))) return null;
        return { groupId: invite.groupId.toHexString() };
      },
    },

    /**
     * Joins the caller. A limited invite's use is claimed with one atomic
     * conditional update, so of two concurrent accepts of a one-use code exactly
     * one wins. Accepting a group you are already in uses nothing. A ban is
     * checked before and again after the join (addMember).
     */
    acceptInvite: {
      params: groupParams.acceptInvite,
      rateLimit: 'invite',
      async handler(ctx: Ctx<Params<typeof groupParams.acceptInvite>>): Promise<Group> {
        const userId = callerId(ctx);
        const now = new Date();
        // Not liveInvite: a member who follows a used-up link still gets their group back.
        const invite = await models.invites
          .findOne({ code: ctx.params.code, expiresAt: { $gt: now } })
          .lean<InviteDoc>();
        if (!invite) throw new ImError('IM_ERR_NOT_FOUND', GONE);
        const group = await models.groups.findById(invite.groupId).lean<GroupDoc>();
        if (!group) throw new ImError('IM_ERR_NOT_FOUND', GONE);
        const existing = await models.members.findOne({ groupId: group._id, userId }).lean<MemberDoc>();
        if (existing) return toGroup(group, existing);
        if (await isBanned({ models }, group._id, userId)) throw bannedError();

        const limited = invite.maxUses !== null;
        if (limited) {
          const claimed = await models.invites.updateOne(
            { _id: invite._id, remaining: { $gt: 0 }, expiresAt: { $gt: now } },
            { $inc: { remaining: -1, uses: 1 } },
          );
          if (claimed.modifiedCount === 0) throw new ImError('IM_ERR_NOT_FOUND', GONE);
        } else {
          const counted = await models.invites.updateOne({ _id: invite._id }, { $inc: { uses: 1 } });
          if (counted.matchedCount === 0) throw new ImError('IM_ERR_NOT_FOUND', GONE); // Revoked meanwhile.
        }
        const giveBack = () =>
          models.invites.updateOne(
            { _id: invite._id },
            limited ? { $inc: { remaining: 1, uses: -1 } } : { $inc: { uses: -1 } },
          );

        return addMember({ models, store, rooms }, ctx, group, userId, giveBack);
      },
    },
  });
};
