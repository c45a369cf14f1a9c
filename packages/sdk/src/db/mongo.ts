import mongoose, { type Connection, type Model, type Schema } from 'mongoose';
import { maskUrlPassword } from '../config/describe.ts';

/** Raised when MongoDB cannot be reached in time; the message is meant for the operator. */
export class DependencyUnavailableError extends Error {
  override readonly name = 'DependencyUnavailableError';
}

export interface MongoOptions {
  timeoutMs: number;
  /** Overrides the database named in the URL (tests give each file its own). */
  dbName?: string;
  /** The driver reports every command (tracing makes spans of them); off, it costs nothing. */
  monitorCommands?: boolean;
}

/**
 * Opens a dedicated mongoose connection and waits until the server answers a
 * ping. Fails within `timeoutMs` with an error naming the (masked) URL.
 */
export async function connectMongo(
  url: string,
  { timeoutMs, dbName, monitorCommands }: MongoOptions,
): Promise<Connection> {
  const connection = mongoose.createConnection(url, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    ...(dbName ? { dbName } : {}),
    ...(monitorCommands ? { monitorCommands } : {}),
    // Indexes are created explicitly at service start, not lazily on first use.
    autoIndex: false,
    autoCreate: false,
  });
  try {
    await connection.asPromise();
    await connection.db?.admin().ping();
    return connection;
  } catch (err) {
    await connection.close(true).catch(() => undefined);
    throw new DependencyUnavailableError(
      `cannot reach MongoDB at ${maskUrlPassword(url)} within ${timeoutMs} ms (${reason(err)})`,
    );
  }
}

export async function pingMongo(connection: Connection): Promise<void> {
  if (!connection.db) throw new Error('not connected');
  await connection.db.admin().ping();
}

export const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A write refused by a unique index (E11000). */
export const isDuplicateKeyError = (err: unknown): boolean => (err as { code?: number } | null)?.code === 11000;

/** The model `name` on this connection, compiled once (services are made once per connection, tests make many). */
export const modelOn = <T>(connection: Connection, name: string, schema: Schema<T>): Model<T> =>
  (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema);
