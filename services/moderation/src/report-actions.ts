import type { Report } from '@im/protocol';
import { call, callerId, isDuplicateKeyError, type Params, type Ctx, notFound, conflict, defineActions } from '@im/sdk';
import { Types } from 'mongoose';
import { readableConverses, requireGroupPermission, requireServerAdmin } from './authority.ts';
import type { ModerationDeps } from './deps.ts';
import type { ReportDoc } from './models.ts';
import { moderationParams } from './params.ts';
import { toReport } from './views.ts';

/** Most open reports one queue shows. */
const MAX_QUEUE = 200;

/** Members report messages; holders of the group's manageMessages (server admins for DMs) work through the queue. */
export const reportActions = ({ reports, audit }: ModerationDeps) => {
  /** Reports with their reporter and the reported message's author, for display. */
  const withUsers = async (ctx: Ctx<object>, docs: ReportDoc[]): Promise<Report[]> => {
    if (docs.length === 0) return [];
    const ids = new Set(docs.flatMap((d) => [d.reporterId.toHexString(), d.message.authorId.toHexString()]));
    const users = await call(ctx, 'user.getMany', { ids: [...ids], includeInactive: true });
    return docs.map((d) => toReport(d, users));
  };

  const openQueue = (filter: Record<string, unknown>) =>
    reports
      .find({ ...filter, status: 'open' })
      .sort({ _id: -1 })
      .limit(MAX_QUEUE)
      .lean<ReportDoc[]>();

  /**
   * Closes an open report: 'delete' deletes the message first (through the
   * chat service, which audits a deletion by someone else), then every open
   * report of that message closes with the same outcome, and the decision is
   * audited. A report already closed is a 409: another admin was quicker.
   */
  const resolve = async (
    ctx: Ctx<object>,
    report: ReportDoc,
    actorId: string,
    action: 'dismiss' | 'delete',
    remove: 'chat.remove' | 'chat.moderatorRemove',
  ): Promise<Report> => {
    if (report.status !== 'open') throw conflict('This report is already resolved');
    if (action === 'delete') await call(ctx, remove, { messageId: report.messageId.toHexString() });
    const status = action === 'delete' ? 'deleted' : 'dismissed';
    const resolvedAt = new Date();
    const closed = await reports.updateMany(
      { messageId: report.messageId, status: 'open' },
      { $set: { status, resolvedBy: new Types.ObjectId(actorId), resolvedAt } },
    );
    if (closed.modifiedCount === 0) throw conflict('This report is already resolved');
    await audit.record(actorId, {
      action: 'report.resolve',
      target: { type: 'report', id: report._id.toHexString() },
      ...(report.groupId ? { groupId: report.groupId.toHexString() } : {}),
      details: {
        outcome: status,
        messageId: report.messageId.toHexString(),
        authorId: report.message.authorId.toHexString(),
        reason: report.reason,
        reports: closed.modifiedCount,
      },
    });
    const [view] = await withUsers(ctx, [{ ...report, status, resolvedBy: new Types.ObjectId(actorId), resolvedAt }]);
    return view!;
  };

  return defineActions('moderation', {
    /** A member of the converse reports a message (once per message). */
    report: {
      params: moderationParams.report,
      rateLimit: 'report',
      async handler(ctx: Ctx<Params<typeof moderationParams.report>>): Promise<Report> {
        const userId = callerId(ctx);
        // Read as the caller: a message they cannot see does not exist for them.
        const message = await call(ctx, 'chat.getMessage', { messageId: ctx.params.messageId });
        if (message.deleted) throw notFound('message');
        const access = await call(ctx, 'chat.access', { converseId: message.converseId, userId });
        if (!access) throw notFound('message');
        try {
          const doc = await reports.create({
            messageId: message.id,
            converseId: message.converseId,
            ...(access.kind === 'group' ? { groupId: access.groupId } : {}),
            reporterId: userId,
            reason: ctx.params.reason,
            createdAt: new Date(),
            status: 'open',
            message: {
              authorId: message.authorId,
              content: message.content,
              seq: message.seq,
              createdAt: new Date(message.createdAt),
            },
          });
          const [view] = await withUsers(ctx, [doc.toObject()]);
          return view!;
        } catch (err) {
          if (isDuplicateKeyError(err)) throw conflict('You already reported this message');
          throw err;
        }
      },
    },

    /** The group's open reports, newest first (holders of manageMessages). */
    groupReports: {
      params: moderationParams.groupReports,
      async handler(ctx: Ctx<Params<typeof moderationParams.groupReports>>): Promise<Report[]> {
        const actorId = await requireGroupPermission(ctx, ctx.params.groupId, 'manageMessages');
        const queue = await openQueue({ groupId: new Types.ObjectId(ctx.params.groupId) });
        // Reports of a private panel the caller is not allowed in are not theirs to see.
        const readable = await readableConverses(
          ctx,
          actorId,
          queue.map((r) => r.converseId.toHexString()),
        );
        return withUsers(
          ctx,
          queue.filter((r) => readable.has(r.converseId.toHexString())),
        );
      },
    },

    resolveGroupReport: {
      params: moderationParams.resolveGroupReport,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof moderationParams.resolveGroupReport>>): Promise<Report> {
        const actorId = await requireGroupPermission(ctx, ctx.params.groupId, 'manageMessages');
        const report = await reports
          .findOne({ _id: ctx.params.reportId, groupId: ctx.params.groupId })
          .lean<ReportDoc>();
        if (!report || !(await readableConverses(ctx, actorId, [report.converseId.toHexString()])).size)
          throw notFound('report');
        return resolve(ctx, report, actorId, ctx.params.action, 'chat.remove');
      },
    },

    /** Every open report, DMs' included, newest first (server admins). */
    adminReports: {
      params: moderationParams.adminReports,
      async handler(ctx: Ctx): Promise<Report[]> {
        await requireServerAdmin(ctx);
        return withUsers(ctx, await openQueue({}));
      },
    },

    resolveAdminReport: {
      params: moderationParams.resolveAdminReport,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof moderationParams.resolveAdminReport>>): Promise<Report> {
        const actorId = await requireServerAdmin(ctx);
        const report = await reports.findById(ctx.params.reportId).lean<ReportDoc>();
        if (!report) throw notFound('report');
        // A server admin need not be in the converse (a DM): the chat service takes their word.
        return resolve(ctx, report, actorId, ctx.params.action, 'chat.moderatorRemove');
      },
    },
  });
};
