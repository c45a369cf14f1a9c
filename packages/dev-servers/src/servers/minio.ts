import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireBinary } from '../binaries.ts';
import { freePort } from '../free-port.ts';
import { ManagedProcess, waitForProcess } from '../managed-process.ts';

export interface MinioServerHandle {
  /** http://ACCESS:SECRET@host:port, the form MINIO_URL takes. */
  url: string;
  dir: string;
  endPoint: string;
  port: number;
  accessKey: string;
  secretKey: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/** A MinIO server on a free loopback port with fresh credentials and a temporary data directory. */
export interface StartMinioOptions {
  host?: string;
  port?: number;
  /** Data directory to reuse (kept on stop); a temporary one otherwise. */
  dir?: string;
  accessKey?: string;
  secretKey?: string;
}

/** Pass the same port, dir and keys to bring a stopped server back with its data. */
export async function startMinio(options: StartMinioOptions = {}): Promise<MinioServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort(host));
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'im-minio-'));
  const accessKey = options.accessKey ?? `testkit${randomBytes(4).toString('hex')}`;
  const secretKey = options.secretKey ?? randomBytes(18).toString('base64url');
  const proc = new ManagedProcess(
    'minio',
    requireBinary('minio'),
    ['server', dir, '--address', `${host}:${port}`, '--quiet'],
    {
      env: {
        ...process.env,
        MINIO_ROOT_USER: accessKey,
        MINIO_ROOT_PASSWORD: secretKey,
        MINIO_BROWSER: 'off',
        MINIO_UPDATE: 'off',
        MINIO_CI_CD: '1',
      },
    },
  );
  await waitForProcess(proc, async () => {
    const res = await fetch(`http://${host}:${port}/minio/health/ready`);
    if (res.status !== 200) throw new Error(`health answered ${res.status}`);
  });
  return {
    url: `http://${accessKey}:${secretKey}@${host}:${port}`,
    dir,
    endPoint: host,
    port,
    accessKey,
    secretKey,
    process: proc,
    stop: async () => {
      await proc.stop();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
