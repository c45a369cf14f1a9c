import { join } from 'node:path';
import type { AppConfig } from '../config/load.ts';
import { ConfigError } from '../config/load.ts';
import { LocalStorage } from './local-storage.ts';
import type { ObjectStorage } from './object-storage.ts';
import { S3Storage } from './s3-storage.ts';

/** The backend the configuration asks for (s3 when MINIO_URL is set, unless STORAGE says otherwise). */
export async function createStorage(
  config: Pick<AppConfig, 'storage' | 'minioUrl' | 's3Bucket' | 's3Region' | 'dataDir'>,
): Promise<ObjectStorage> {
  const kind = config.storage ?? (config.minioUrl ? 's3' : 'local');
  if (kind === 'local') return new LocalStorage(join(config.dataDir, 'files'));
  if (!config.minioUrl) throw new ConfigError('MINIO_URL', 'is required when STORAGE=s3');
  const storage = new S3Storage({ url: config.minioUrl, bucket: config.s3Bucket, region: config.s3Region });
  await storage.ensureBucket();
  return storage;
}
