import { after, before } from 'node:test';
import { createLogger, parseConfig } from '@im/sdk';
import { openTestEnv, type TestEnv } from '@im/testkit';
import mongoose from 'mongoose';
import { chatModels, type ChatModels } from '../src/models.ts';

/** A quiet logger for the service's parts run on their own. */
export const quietLogger = createLogger(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'fatal' }));

/** The chat service's models on the test file's own database, with their indexes. */
export interface ChatDb {
  connection: mongoose.Connection;
  models: ChatModels;
  close(): Promise<void>;
}

export async function openChatDb(fileUrl: string): Promise<ChatDb> {
  const env: TestEnv = await openTestEnv(fileUrl);
  const connection = await mongoose.createConnection(env.mongoUrl).asPromise();
  const models = chatModels(connection);
  await Promise.all(Object.values(models).map((m) => m.createIndexes()));
  return {
    connection,
    models,
    close: async () => {
      await connection.close();
      await env.close();
    },
  };
}

/**
 * Registers the hooks (call it inside `describe`) that open the chat
 * database before the tests and close it after them; read `db` and
 * `models` in the tests.
 */
export function chatDbHooks(fileUrl: string): { readonly db: ChatDb; readonly models: ChatModels } {
  let db: ChatDb | undefined;
  before(async () => {
    db = await openChatDb(fileUrl);
  });
  after(async () => db?.close());
  return {
    get db() {
      return db!;
    },
    get models() {
      return db!.models;
    },
  };
}
