import type { ImportJob } from '@im/protocol';
import { call, callerId, type Ctx, notFound, forbidden, invalid } from '@im/sdk';
import { Types } from 'mongoose';
import type { ImportDeps } from './deps.ts';
import type { ImportRunner } from './import-runner.ts';
import { toImportJob } from './job-view.ts';
import type { ImportJobDoc } from './models.ts';
import { importParams } from './params.ts';

const LISTED = 20;

async function mustBeServerAdmin(ctx: Ctx<object>): Promise<string> {
  const userId = callerId(ctx);
  if (!(await call(ctx, 'user.isServerAdmin', { userId }))) throw forbidden('Only server admins may import');
  return userId;
}

/** Imports started from the app (server admins): checked, queued, listed. */
export const importActions = (deps: ImportDeps, runner: () => ImportRunner) => ({
  /** The upload route asks this before it stores a byte: who may, what kind, whose group. */
  prepare: {
    visibility: 'public' as const,
    params: importParams.prepare,
    async handler(ctx: Ctx<{ kind: string; owner?: string }>): Promise<{ ownerId: string }> {
      const adminId = await mustBeServerAdmin(ctx);
      if (!ctx.params.owner) return { ownerId: adminId };
      const owner = await deps.app
        .mongo!.db!.collection('users')
        .findOne({ username: ctx.params.owner.toLowerCase(), status: 'active' }, { projection: { _id: 1 } });
      if (!owner)
        throw invalid(`No active account is named ${ctx.params.owner}`, [
          { field: 'owner', type: 'unknownUser', message: 'No active account has this username' },
        ]);
      return { ownerId: String(owner._id) };
    },
  },

  start: {
    visibility: 'public' as const,
    params: importParams.start,
    async handler(
      ctx: Ctx<{ kind: ImportJobDoc['kind']; ownerId: string; storageKey: string; fileName: string }>,
    ): Promise<ImportJob> {
      const adminId = await mustBeServerAdmin(ctx);
      const now = new Date();
      const doc = (
        await deps.models.imports.create({
          kind: ctx.params.kind,
          fileName: ctx.params.fileName,
          ownerId: new Types.ObjectId(ctx.params.ownerId),
          startedBy: new Types.ObjectId(adminId),
          storageKey: ctx.params.storageKey,
          status: 'queued',
          phase: 'queued',
          messages: 0,
          groupIds: [],
          dmConverseIds: [],
          startedAt: now,
          updatedAt: now,
        })
      ).toObject() as ImportJobDoc;
      runner().enqueue(doc);
      return toImportJob(doc);
    },
  },

  list: {
    params: importParams.list,
    async handler(ctx: Ctx): Promise<ImportJob[]> {
      await mustBeServerAdmin(ctx);
      const docs = await deps.models.imports.find({}).sort({ _id: -1 }).limit(LISTED).lean<ImportJobDoc[]>();
      return docs.map(toImportJob);
    },
  },

  get: {
    params: importParams.get,
    async handler(ctx: Ctx<{ importId: string }>): Promise<ImportJob> {
      await mustBeServerAdmin(ctx);
      const doc = await deps.models.imports.findById(ctx.params.importId).lean<ImportJobDoc>();
      if (!doc) throw notFound('import');
      return toImportJob(doc);
    },
  },
});
