import type { Ban } from '@im/protocol';
import {
  announce,
  call,
  callerId,
  EVENTS,
  ImError,
  isDuplicateKeyError,
  type Params,
  type Ctx,
  notFound,
  forbidden,
  defineActions,
} from '@im/sdk';
import { Types } from 'mongoose';
import { loadForMember, refusalToModerate, standingOf } from './access.ts';
import { rulesOf } from './permissions.ts';
import type { GroupDeps } from './deps.ts';
import type { BanDoc, MemberDoc } from './models.ts';
import { groupParams } from './params.ts';
import { auditMemberAction } from './member-audit.ts';
import { removeMembership } from './member-removal.ts';

/** Most bans one list shows. */
const MAX_BANS_LISTED = 1000;

/** Bans and timed mutes: what group admins use to keep a group usable. */
export const moderationActions = ({ models, store, audit, rooms }: GroupDeps) => {
  /** The caller (an owner or admin), and the member they act on (null: not a member) if they may. */
  const loadActorAndTarget = async (ctx: Ctx<{ groupId: string; userId: string }>, verb: 'ban' | 'mute') => {
    const actorId = callerId(ctx);
    const permission = verb === 'ban' ? 'banMembers' : 'muteMembers';
    const { group, me } = await loadForMember(models, ctx.params.groupId, actorId, permission);
    if (ctx.params.userId === actorId) throw forbidden(`You cannot ${verb} yourself`);
    const target = await models.members.findOne({ groupId: group._id, userId: ctx.params.userId }).lean<MemberDoc>();
    const refusal = refusalToModerate(standingOf(me), target && standingOf(target), rulesOf(group), {
      base: verb,
      past: verb === 'ban' ? 'banned' : 'muted',
    });
    if (refusal) throw forbidden(refusal);
    return { actorId, group, target };
  };

  return defineActions('group', {
    /**
     * Bans a member (or someone who left): they are removed, the invites
     * they made are revoked, and every later join is refused. Banning
     * someone already banned changes nothing.
     */
    ban: {
      params: groupParams.ban,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof groupParams.ban>>): Promise<void> {
        const { actorId, group, target } = await loadActorAndTarget(ctx, 'ban');
        if (!target) {
          const users = await call(ctx, 'user.getMany', { ids: [ctx.params.userId], includeInactive: true });
          if (!users[ctx.params.userId]) throw notFound('user');
        }
        const reason = ctx.params.reason ?? '';
        let created = false;
        try {
          await models.bans.create({
            groupId: group._id,
            userId: ctx.params.userId,
            reason,
            bannedBy: actorId,
            bannedAt: new Date(),
          });
          created = true;
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
        }
        if (target) await removeMembership({ models, store, rooms }, ctx, group, target, actorId);
        await models.invites.deleteMany({ groupId: group._id, createdBy: new Types.ObjectId(ctx.params.userId) });
        if (created)
          await auditMemberAction(audit, ctx, {
            actorId: actorId,
            action: 'member.ban',
            userId: ctx.params.userId,
            groupId: ctx.params.groupId,
            details: { reason },
          });
      },
    },

    unban: {
      params: groupParams.unban,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof groupParams.unban>>): Promise<void> {
        const actorId = callerId(ctx);
        await loadForMember(models, ctx.params.groupId, actorId, 'banMembers');
        const { deletedCount } = await models.bans.deleteOne({
          groupId: ctx.params.groupId,
          userId: ctx.params.userId,
        });
        if (deletedCount === 0) throw new ImError('IM_ERR_NOT_FOUND', 'This user is not banned here');
        await auditMemberAction(audit, ctx, {
          actorId: actorId,
          action: 'member.unban',
          userId: ctx.params.userId,
          groupId: ctx.params.groupId,
        });
      },
    },

    /** Newest ban first. */
    bans: {
      params: groupParams.bans,
      async handler(ctx: Ctx<Params<typeof groupParams.bans>>): Promise<Ban[]> {
        await loadForMember(models, ctx.params.groupId, callerId(ctx), 'banMembers');
        const docs = await models.bans
          .find({ groupId: ctx.params.groupId })
          .sort({ bannedAt: -1 })
          .limit(MAX_BANS_LISTED)
          .lean<BanDoc[]>();
        if (docs.length === 0) return [];
        const users = await call(ctx, 'user.getMany', {
          ids: [...new Set(docs.map((d) => d.userId.toHexString()))],
          includeInactive: true,
        });
        return docs.flatMap((d) => {
          const user = users[d.userId.toHexString()];
          return user
            ? [{ user, reason: d.reason, bannedBy: d.bannedBy.toHexString(), bannedAt: d.bannedAt.toISOString() }]
            : [];
        });
      },
    },

    /**
     * Mutes a member for `seconds` (0 lifts it). Stored as an end time the
     * send path compares with the clock, so nothing has to run when it ends.
     */
    mute: {
      params: groupParams.mute,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof groupParams.mute>>): Promise<void> {
        const { actorId, target } = await loadActorAndTarget(ctx, 'mute');
        if (!target) throw notFound('member');
        const { seconds } = ctx.params;
        const until = seconds > 0 ? new Date(Date.now() + seconds * 1000) : undefined;
        const before = await store.updateMember(
          { _id: target._id },
          until ? { $set: { mutedUntil: until } } : { $unset: { mutedUntil: 1 } },
        );
        if (!before) throw notFound('member');
        announce(ctx, EVENTS.memberUpdated, {
          groupId: ctx.params.groupId,
          userId: ctx.params.userId,
          role: before.role,
          roleIds: (before.roleIds ?? []).map((id) => id.toHexString()),
          ...(until ? { mutedUntil: until.toISOString() } : {}),
        });
        const wasMuted = (before.mutedUntil?.getTime() ?? 0) > Date.now();
        if (until || wasMuted)
          await auditMemberAction(audit, ctx, {
            actorId: actorId,
            action: until ? 'member.mute' : 'member.unmute',
            userId: ctx.params.userId,
            groupId: ctx.params.groupId,
            details: until ? { seconds, until: until.toISOString() } : {},
          });
      },
    },
  });
};
