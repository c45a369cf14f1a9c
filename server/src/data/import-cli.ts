// `npm run import -- slack|mattermost|discord|im <path> --owner <username>`:
// an export into the platform's database and file storage, whether the
// platform runs or not. Progress goes to stderr; the last stdout line is the
// JSON summary. It reads the same settings (MONGO_URL, DATA_DIR, STORAGE,
// MINIO_URL...) as `npm start`.
import { basename, resolve } from 'node:path';
import type { ImportKind } from '@im/protocol';
import { createLogger, createStorage, parseConfig } from '@im/sdk';
import { IMPORT_KINDS, importModels, jobProgress, openSource, runImport, type ImportProgress } from '@im/service-import';
import { Types } from 'mongoose';
import { openDatabase } from './database.ts';

const USAGE = `usage: npm run import -- ${IMPORT_KINDS.join('|')} <path> --owner <username>`;
/** How long to wait for a running platform to take the import in before saying it will when it starts. */
const ANNOUNCE_WAIT_MS = 15_000;

function parseArgs(argv: string[]): { kind: ImportKind; path: string; owner: string } {
  const [kind, path, ...rest] = argv;
  const ownerAt = rest.indexOf('--owner');
  const owner = ownerAt >= 0 ? rest[ownerAt + 1] : undefined;
  if (!kind || !IMPORT_KINDS.includes(kind as ImportKind) || !path || !owner || rest.length !== 2) {
    console.error(USAGE);
    process.exit(2);
  }
  return { kind: kind as ImportKind, path: resolve(path), owner };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const config = parseConfig(process.env);
  const logger = createLogger({ ...config, logLevel: 'warn' });
  const db = await openDatabase(config, logger);
  const say = (line: string) => process.stderr.write(`${line}\n`);
  try {
    const storage = await createStorage(config);
    const models = importModels(db.connection);
    await models.imports.createIndexes();
    const owner = await db.connection.db!.collection('users').findOne({ username: args.owner.toLowerCase() });
    if (!owner) throw new Error(`no account is named ${args.owner}`);
    // An export its reader refuses stops here, before a job is recorded.
    const source = await openSource(args.kind, args.path);
    const jobId = new Types.ObjectId();
    const now = new Date();
    await models.imports.create({
      _id: jobId,
      kind: args.kind,
      fileName: basename(args.path),
      ownerId: owner._id,
      status: 'running',
      phase: 'reading',
      messages: 0,
      groupIds: [],
      dmConverseIds: [],
      startedAt: now,
      updatedAt: now,
    });
    say(`importing ${args.path} (${args.kind}) into ${db.describe} for ${args.owner}`);
    const started = Date.now();
    let lastLine = 0;
    const report = (p: ImportProgress) => {
      if (Date.now() - lastLine < 2000 && p.phase === 'messages') return;
      lastLine = Date.now();
      const rate = p.messages / Math.max(0.001, (Date.now() - started) / 1000);
      say(
        `  ${p.phase}${p.total !== undefined ? `: ${p.messages} of ${p.total} messages` : ''}` +
          (p.phase === 'messages' ? ` (${Math.round(rate)}/s)` : ''),
      );
    };
    try {
      const outcome = await runImport(db.connection.db!, storage, source, {
        owner: args.owner,
        progress: jobProgress(models, jobId, report),
      });
      await models.imports.updateOne(
        { _id: jobId },
        {
          $set: {
            status: 'done',
            phase: 'done',
            messages: outcome.summary.messages,
            summary: outcome.summary,
            skippedReasons: outcome.skippedReasons,
            groupIds: outcome.groupIds,
            dmConverseIds: outcome.dmConverseIds,
            announce: 'pending',
            finishedAt: new Date(),
            updatedAt: new Date(),
          },
        },
      );
      const seconds = (Date.now() - started) / 1000;
      say(`done in ${seconds.toFixed(1)} s (${Math.round(outcome.summary.messages / Math.max(seconds, 0.001))} messages/s)`);
      for (const [reason, count] of Object.entries(outcome.skippedReasons)) say(`  skipped ${count}: ${reason}`);
      say(
        db.describe.startsWith('the embedded database in')
          ? 'the platform is not running: it takes the import in when it starts'
          : await waitForAnnouncement(models, jobId),
      );
      console.log(JSON.stringify(outcome.summary));
    } catch (err) {
      await models.imports.updateOne(
        { _id: jobId },
        {
          $set: {
            status: 'failed',
            error: { code: 'IM_ERR_IMPORT_FAILED', message: (err as Error).message },
            finishedAt: new Date(),
            updatedAt: new Date(),
          },
        },
      );
      throw err;
    } finally {
      await source.close();
    }
  } finally {
    await db.close();
  }
}

/** Waits for a running platform's import node to take the import in (caches, room index, open apps). */
async function waitForAnnouncement(models: ReturnType<typeof importModels>, jobId: Types.ObjectId): Promise<string> {
  const deadline = Date.now() + ANNOUNCE_WAIT_MS;
  while (Date.now() < deadline) {
    const job = await models.imports.findById(jobId, { announce: 1 }).lean();
    if (job?.announce === 'done') return 'the running platform has taken it in: open apps show it now';
    await new Promise((r) => setTimeout(r, 250));
  }
  return 'no running platform took it in yet: it will when it starts (until then, nothing else is needed)';
}

main().catch((err: unknown) => {
  console.error(`import failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
