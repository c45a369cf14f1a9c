import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findBinary, startMongo, type MongoServerHandle } from '@im/dev-servers';
import type { Logger } from '@im/sdk';

/**
 * For a single instance without MONGO_URL: mongod with DATA_DIR/db when it is
 * installed, else the in-memory dev server, with a warning nobody can miss.
 */
export async function startLocalMongo(dataDir: string, logger: Logger): Promise<MongoServerHandle> {
  if (findBinary('mongod')) {
    const dbPath = join(resolve(dataDir), 'db');
    mkdirSync(dbPath, { recursive: true });
    const mongo = await startMongo({ dbPath });
    logger.info(`MONGO_URL unset: started mongod with data in ${dbPath}`);
    return mongo;
  }
  const mongo = await startMongo({ preferInMemory: true });
  const banner = '*'.repeat(78);
  logger.warn(
    `\n${banner}\n  MONGO_URL is unset and mongod is not installed: using the IN-MEMORY dev server\n  (mongo-java-server at ${mongo.url}). ALL DATA IS LOST WHEN THIS PROCESS STOPS.\n  Set MONGO_URL=mongodb://... to keep data.\n${banner}`,
  );
  return mongo;
}
