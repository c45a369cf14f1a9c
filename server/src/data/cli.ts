// `npm run backup -- <file>` and `npm run restore -- <file>`: the platform's
// database and stored files to one archive and back. `npm run migrate -- --to
// <mongodb url>`: the database into a MongoDB. They read the same settings
// (MONGO_URL, DATA_DIR, STORAGE, MINIO_URL...) as `npm start`.
import { resolve } from 'node:path';
import { createLogger, createStorage, parseConfig, type AppConfig, type Logger } from '@im/sdk';
import { writeBackup } from './backup.ts';
import { openDatabase, openTarget } from './database.ts';
import { migrateDatabase } from './migrate.ts';
import { restoreBackup } from './restore.ts';

const USAGE =
  'usage: npm run backup -- <file>  |  npm run restore -- <file>  |  npm run migrate -- --to mongodb://host/db';

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const config = parseConfig(process.env);
  const logger = createLogger({ ...config, logLevel: 'warn' });
  if (command === 'migrate') {
    if (args.length !== 2 || args[0] !== '--to' || !/^mongodb(\+srv)?:\/\//.test(args[1]!)) {
      console.error(USAGE);
      process.exit(2);
    }
    await migrate(args[1]!, config, logger);
    return;
  }
  const [target, ...rest] = args;
  if ((command !== 'backup' && command !== 'restore') || !target || rest.length > 0) {
    console.error(USAGE);
    process.exit(2);
  }
  const file = resolve(target);
  const db = await openDatabase(config, logger);
  const say = (line: string) => console.log(`  ${line}`);
  try {
    const storage = await createStorage(config);
    if (command === 'backup') {
      console.log(`backing up ${db.describe} and the file storage to ${file}`);
      const manifest = await writeBackup(db.connection, storage, file, say);
      const docs = Object.values(manifest.collections).reduce((a, b) => a + b, 0);
      console.log(`done: ${docs} documents in ${Object.keys(manifest.collections).length} collections, ${manifest.files.length} files`);
    } else {
      console.log(`restoring ${file} into ${db.describe} and the file storage`);
      const manifest = await restoreBackup(db.connection, storage, file, say);
      const docs = Object.values(manifest.collections).reduce((a, b) => a + b, 0);
      console.log(`done: ${docs} documents, ${manifest.files.length} files (backup of ${manifest.createdAt})`);
    }
  } finally {
    await db.close();
  }
}

async function migrate(to: string, config: Pick<AppConfig, 'mongoUrl' | 'dataDir' | 'storage' | 'minioUrl'>, logger: Logger) {
  const source = await openDatabase(config, logger, { stopped: true });
  try {
    const target = await openTarget(to);
    try {
      console.log(`copying ${source.describe} into ${target.describe}`);
      const report = await migrateDatabase(source.connection, target.connection, (line) => console.log(`  ${line}`));
      const differ = Object.entries(report.collections).filter(([, c]) => c.source !== c.target);
      if (differ.length > 0 || report.countersBehind.length > 0) {
        throw new Error(
          `the copy does not match: ${differ.map(([n, c]) => `${n} ${c.target} of ${c.source}`).join(', ')}` +
            (report.countersBehind.length > 0 ? ` counters behind in ${report.countersBehind.length} converses` : ''),
        );
      }
      const docs = Object.values(report.collections).reduce((a, c) => a + c.target, 0);
      console.log(`done: ${docs} documents in ${Object.keys(report.collections).length} collections, ${report.indexes} indexes; counts and sequence counters checked`);
      console.log('to run on it, set:');
      console.log(`  MONGO_URL=${to}`);
      console.log(
        config.storage === 's3' || config.minioUrl
          ? '  (files are already in S3: keep MINIO_URL)'
          : `  STORAGE=local and DATA_DIR=${config.dataDir} keep the files where they are; for a cluster, copy DATA_DIR/files into the bucket and set MINIO_URL`,
      );
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

main().catch((err: unknown) => {
  console.error(`${process.argv[2] ?? 'data tool'} failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
