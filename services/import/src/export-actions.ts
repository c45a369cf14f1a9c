import type { ExportAccepted, ExportJob } from '@im/protocol';
import { call, callerId, ExportUrlSigner, type Params, type Ctx, forbidden, notFound, defineActions } from '@im/sdk';
import { Types } from 'mongoose';
import type { ImportDeps } from './deps.ts';
import type { ExportJobDoc } from './export-models.ts';
import { exportParams } from './export/export-params.ts';
import { ExportRunner } from './export/export-runner.ts';

/** Group and personal exports: asked for, followed, and their archives located for the gateway's download route. */
export const exportActions = (deps: ImportDeps) => {
  const { app, models, storage } = deps;
  const runner = new ExportRunner({
    connection: app.mongo!,
    storage,
    models,
    logger: app.logger,
    publicUrl: app.config.publicUrl,
  });
  const signer = new ExportUrlSigner(app.config.secret, app.config.fileUrlTtlSec);

  const begin = async (
    ctx: Ctx<object>,
    job: Omit<ExportJobDoc, '_id' | 'status' | 'nodeId' | 'createdAt' | 'updatedAt'>,
  ) => {
    const now = new Date();
    const doc: ExportJobDoc = {
      _id: new Types.ObjectId(),
      ...job,
      status: 'running',
      nodeId: ctx.broker.nodeID,
      createdAt: now,
      updatedAt: now,
    };
    await models.exports.create(doc);
    runner.start(doc);
    return { id: doc._id.toHexString() } satisfies ExportAccepted;
  };

  return defineActions('import', {
    /** POST /api/groups/:groupId/export: the owner or a server admin; other members 403, everyone else 404. */
    exportGroup: {
      params: exportParams.group,
      async handler(ctx: Ctx<Params<typeof exportParams.group>>): Promise<ExportAccepted> {
        const userId = callerId(ctx);
        const { groupId } = ctx.params;
        const access = await call(ctx, 'group.memberAccess', { groupId, userId });
        if (access?.role !== 'owner') {
          const admin = await call(ctx, 'user.isServerAdmin', { userId });
          if (!admin && access) throw forbidden("Only the group's owner can export it");
          if (!admin) throw notFound('group');
          const exists = await app.mongo!.db!.collection('groups').countDocuments({ _id: new Types.ObjectId(groupId) });
          if (!exists) throw notFound('group');
        }
        return begin(ctx, {
          kind: 'group',
          requestedBy: new Types.ObjectId(userId),
          groupId: new Types.ObjectId(groupId),
        });
      },
    },

    /** POST /api/users/me/export: the caller's own data. */
    exportMine: {
      params: exportParams.mine,
      async handler(ctx: Ctx<Params<typeof exportParams.mine>>): Promise<ExportAccepted> {
        return begin(ctx, { kind: 'personal', requestedBy: new Types.ObjectId(callerId(ctx)) });
      },
    },

    /** GET /api/exports/:exportId: only for whoever asked (404 for everyone else); a fresh signed URL once done. */
    exportStatus: {
      params: exportParams.status,
      async handler(ctx: Ctx<Params<typeof exportParams.status>>): Promise<ExportJob> {
        const job = await models.exports
          .findOne({ _id: ctx.params.exportId, requestedBy: callerId(ctx) })
          .lean<ExportJobDoc>();
        if (!job) throw notFound('export');
        const signed = job.status === 'done' ? signer.sign(job._id.toHexString()) : undefined;
        return {
          id: job._id.toHexString(),
          kind: job.kind,
          status: job.status,
          ...(signed ? { url: signed.url, urlExpiresAt: signed.expiresAt } : {}),
          ...(job.size !== undefined ? { size: job.size } : {}),
          ...(job.error ? { error: job.error } : {}),
          createdAt: job.createdAt.toISOString(),
          ...(job.finishedAt ? { finishedAt: job.finishedAt.toISOString() } : {}),
        };
      },
    },

    /** For the gateway, once it checked the URL's signature: where the archive is. */
    exportLocate: {
      visibility: 'public' as const,
      params: exportParams.locate,
      async handler(
        ctx: Ctx<Params<typeof exportParams.locate>>,
      ): Promise<{ storageKey: string; size: number; fileName: string }> {
        const job = await models.exports.findById(ctx.params.exportId).lean<ExportJobDoc>();
        if (!job || job.status !== 'done' || !job.storageKey || job.size === undefined) throw notFound('export');
        const day = job.createdAt.toISOString().slice(0, 10);
        const fileName = `${job.kind === 'group' ? 'group' : 'personal'}-export-${day}-${job._id.toHexString().slice(-6)}.zip`;
        return { storageKey: job.storageKey, size: job.size, fileName };
      },
    },
  });
};
