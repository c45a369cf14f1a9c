import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AppConfig, Logger } from '@im/sdk';
import mongoose from 'mongoose';
import { EMBEDDED_DB_FILE, EMBEDDED_DB_URL_FILE, LOCAL_DB_NAME, startEmbedded } from '../local-mongo.ts';

export interface OpenDatabase {
  connection: mongoose.Connection;
  /** Where it is, for messages. */
  describe: string;
  close(): Promise<void>;
}

/**
 * The platform's database for a data tool: MONGO_URL when set; else the
 * embedded database, through the running single instance's server (its URL is
 * in DATA_DIR) or, when none runs, a server this tool starts on the file.
 */
export async function openDatabase(
  config: Pick<AppConfig, 'mongoUrl' | 'dataDir'>,
  logger: Logger,
  options: { stopped?: boolean } = {},
): Promise<OpenDatabase> {
  if (config.mongoUrl) return connect(config.mongoUrl, `MONGO_URL (${redact(config.mongoUrl)})`, async () => {});
  const dataDir = resolve(config.dataDir);
  const urlFile = join(dataDir, EMBEDDED_DB_URL_FILE);
  if (existsSync(urlFile)) {
    const url = readFileSync(urlFile, 'utf8').trim();
    let running: OpenDatabase | undefined;
    try {
      running = await connect(`${url}/${LOCAL_DB_NAME}`, `the running embedded database (${url})`, async () => {});
    } catch {
      logger.info(`${urlFile} names ${url}, which does not answer: the server is not running`);
    }
    if (running && options.stopped) {
      await running.close();
      throw new Error('the platform is running on this DATA_DIR: stop it first, so that nothing changes while it is copied');
    }
    if (running) return running;
  }
  const file = join(dataDir, EMBEDDED_DB_FILE);
  const server = await startEmbedded(file, 0);
  try {
    return await connect(`${server.url}/${LOCAL_DB_NAME}`, `the embedded database in ${file}`, () => server.stop());
  } catch (err) {
    await server.stop();
    throw err;
  }
}

async function connect(url: string, describe: string, stop: () => Promise<void>): Promise<OpenDatabase> {
  const connection = await mongoose.createConnection(url, { serverSelectionTimeoutMS: 5000 }).asPromise();
  return {
    connection,
    describe,
    close: async () => {
      await connection.close();
      await stop();
    },
  };
}

const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');

/** The URL with the platform's database name when it names none. */
export function withDefaultDatabase(url: string): string {
  const parsed = new URL(url);
  if (parsed.pathname === '' || parsed.pathname === '/') parsed.pathname = `/${LOCAL_DB_NAME}`;
  return parsed.toString();
}

/** A MongoDB given on the command line. */
export async function openTarget(url: string): Promise<OpenDatabase> {
  const full = withDefaultDatabase(url);
  return connect(full, redact(full), async () => {});
}

/** The collections that hold the platform's documents (not the server's own). */
export async function collectionNames(db: mongoose.mongo.Db): Promise<string[]> {
  return (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    .filter((n) => !n.startsWith('system.'));
}

/** Refuses a database that holds any document: the data tools load into empty ones only. */
export async function assertEmpty(db: mongoose.mongo.Db, tool: string): Promise<void> {
  for (const name of await collectionNames(db)) {
    if ((await db.collection(name).estimatedDocumentCount()) > 0) {
      throw new Error(`the database is not empty (${name} holds documents): ${tool} loads into an empty one`);
    }
  }
}

const BATCH = 1000;

/** Inserts the documents in order, a thousand at a time; answers how many. */
export async function insertInBatches(
  collection: mongoose.mongo.Collection,
  docs: AsyncIterable<mongoose.mongo.BSON.Document>,
): Promise<number> {
  let batch: mongoose.mongo.BSON.Document[] = [];
  let count = 0;
  const flush = async () => {
    if (batch.length > 0) await collection.insertMany(batch, { ordered: true });
    count += batch.length;
    batch = [];
  };
  for await (const doc of docs) {
    batch.push(doc);
    if (batch.length === BATCH) await flush();
  }
  await flush();
  return count;
}
