import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as MinioClient } from 'minio';
import { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { startServers, type ServerSet } from '@im/dev-servers';

/** Variables the test runner sets so every test file shares one set of servers. */
export const TESTKIT_ENV = {
  mongo: 'TESTKIT_MONGO_URL',
  redis: 'TESTKIT_REDIS_URL',
  nats: 'TESTKIT_NATS_URL',
  minio: 'TESTKIT_MINIO_URL',
} as const;

export interface MinioAccess {
  endPoint: string;
  port: number;
  useSSL: false;
  accessKey: string;
  secretKey: string;
  /** This test file's own bucket (created by openTestEnv). */
  bucket: string;
  /** MINIO_URL form: http://ACCESS:SECRET@host:port */
  url: string;
}

/**
 * One test file's slice of the shared servers: its own database, Redis key
 * prefix, broker namespace and bucket, all removed by close().
 */
export interface TestEnv {
  /** Unique per test file and run: use as database, prefix, bucket and namespace stem. */
  id: string;
  mongoUrl: string;
  dbName: string;
  redisUrl: string;
  redisPrefix: string;
  natsUrl: string;
  namespace: string;
  minio: MinioAccess;
  close(): Promise<void>;
}

/**
 * Opens the test environment for the calling file (pass import.meta.url).
 * Uses the servers of `npm test`; a file run on its own starts its own.
 */
export async function openTestEnv(fileUrl: string): Promise<TestEnv> {
  let own: ServerSet | undefined;
  let urls = fromEnv();
  if (!urls) {
    own = await startServers({ mongo: true, redis: true, nats: true, minio: true });
    urls = {
      mongo: own.mongo!.url,
      redis: own.redis!.url,
      nats: own.nats!.url,
      minio: own.minio!.url,
    };
  }
  const stem = basename(fileURLToPath(fileUrl))
    .replace(/\.test\.ts$/, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .toLowerCase()
    .slice(0, 30);
  const id = `t-${stem}-${randomBytes(4).toString('hex')}`;
  const minioUrl = new URL(urls.minio);
  const minio: MinioAccess = {
    endPoint: minioUrl.hostname,
    port: Number(minioUrl.port),
    useSSL: false,
    accessKey: decodeURIComponent(minioUrl.username),
    secretKey: decodeURIComponent(minioUrl.password),
    bucket: id,
    url: urls.minio,
  };
  const minioClient = new MinioClient(minio);
  await minioClient.makeBucket(id);
  const mongoUrl = withDatabase(urls.mongo, id);

  return {
    id,
    mongoUrl,
    dbName: id,
    redisUrl: urls.redis,
    redisPrefix: `${id}:`,
    natsUrl: urls.nats,
    namespace: id,
    minio,
    close: async () => {
      try {
        await Promise.allSettled([
          dropDatabase(mongoUrl),
          deleteKeys(urls.redis, `${id}:`),
          removeBucket(minioClient, id),
        ]);
      } finally {
        await own?.stop();
      }
    },
  };
}

function fromEnv(): { mongo: string; redis: string; nats: string; minio: string } | undefined {
  const mongo = process.env[TESTKIT_ENV.mongo];
  const redis = process.env[TESTKIT_ENV.redis];
  const nats = process.env[TESTKIT_ENV.nats];
  const minio = process.env[TESTKIT_ENV.minio];
  return mongo && redis && nats && minio ? { mongo, redis, nats, minio } : undefined;
}

/** mongodb://host:port[/db][?opts] with the database replaced. */
export function withDatabase(url: string, db: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${db}`;
  return parsed.toString();
}

async function dropDatabase(url: string): Promise<void> {
  const conn = await mongoose.createConnection(url, { serverSelectionTimeoutMS: 3000 }).asPromise();
  try {
    await conn.dropDatabase();
  } finally {
    await conn.close();
  }
}

async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function removeBucket(client: MinioClient, bucket: string): Promise<void> {
  const names: string[] = [];
  for await (const item of client.listObjectsV2(bucket, '', true) as AsyncIterable<{ name?: string }>) {
    if (item.name) names.push(item.name);
  }
  if (names.length > 0) await client.removeObjects(bucket, names);
  await client.removeBucket(bucket);
}
