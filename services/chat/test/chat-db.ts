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
