import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findBinary, startMongo, type MongoServerHandle } from '@im/dev-servers';
import type { AppConfig, Logger } from '@im/sdk';

/** The database the platform uses on a server it starts itself. */
export const LOCAL_DB_NAME = 'im';
/** The embedded database's file in DATA_DIR (H2 adds nothing to the name). */
export const EMBEDDED_DB_FILE = 'im.mv.db';
/** While the single instance runs: its embedded database's URL, for the data tools (backup). */
export const EMBEDDED_DB_URL_FILE = '.embedded-db-url';

/**
 * For a single instance without MONGO_URL: mongod with DATA_DIR/db when it is
 * installed, else the embedded database: a file in DATA_DIR (the default), or
 * memory when DEV_DATABASE=memory, with a warning nobody can miss.
 */
export async function startLocalMongo(
  config: Pick<AppConfig, 'dataDir' | 'devDatabase'>,
  logger: Logger,
): Promise<MongoServerHandle> {
  const dataDir = resolve(config.dataDir);
  if (findBinary('mongod')) {
    const dbPath = join(dataDir, 'db');
    mkdirSync(dbPath, { recursive: true });
    const mongo = await startMongo({ dbPath });
    logger.info(`MONGO_URL unset: started mongod with data in ${dbPath}`);
    return mongo;
  }
  if (config.devDatabase === 'file') {
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, EMBEDDED_DB_FILE);
    const server = await startEmbedded(file);
    const urlFile = join(dataDir, EMBEDDED_DB_URL_FILE);
    writeFileSync(urlFile, `${server.url}\n`, { mode: 0o600 });
    const mongo: MongoServerHandle = {
      ...server,
      stop: async () => {
        rmSync(urlFile, { force: true });
        await server.stop();
      },
    };
    logger.info(
      `MONGO_URL unset: using the embedded database, kept in ${file} (mongo-java-server with H2 at ${mongo.url})`,
    );
    return mongo;
  }
  const mongo = await startMongo({ preferInMemory: true });
  const banner = '*'.repeat(78);
  logger.warn(
    `\n${banner}\n  DEV_DATABASE=memory: using the IN-MEMORY dev server\n  (mongo-java-server at ${mongo.url}). ALL DATA IS LOST WHEN THIS PROCESS STOPS.\n  Unset DEV_DATABASE (or set MONGO_URL) to keep data.\n${banner}`,
  );
  return mongo;
}

/** How long a start waits for the previous server to let go of the file (it closes it as its parent dies). */
const LOCK_WAIT_MS = 15_000;

/** The embedded database server on `file`, waiting up to `lockWaitMs` for another one to let go of it. */
export async function startEmbedded(file: string, lockWaitMs = LOCK_WAIT_MS): Promise<MongoServerHandle> {
  const deadline = Date.now() + lockWaitMs;
  for (;;) {
    try {
      return await startMongo({ preferInMemory: true, dataFile: file });
    } catch (err) {
      // Restarted right after a crash: the old server is still writing its last changes.
      if (!/file is locked/i.test((err as Error).message) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
