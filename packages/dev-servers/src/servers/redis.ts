import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireBinary } from '../binaries.ts';
import { freePort } from '../free-port.ts';
import { ManagedProcess, waitForProcess } from '../managed-process.ts';
import { tcpExchange } from '../probes.ts';

export interface RedisServerHandle {
  url: string;
  port: number;
  process: ManagedProcess;
  stop(): Promise<void>;
}

export interface StartRedisOptions {
  host?: string;
  port?: number;
  /** More redis-server options, e.g. `['--replicaof', host, port]`. */
  args?: string[];
  /** Run inside this network namespace. */
  netns?: string;
}

/** redis-server on a free loopback port, without persistence. */
export async function startRedis(options: StartRedisOptions = {}): Promise<RedisServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort(host));
  const dir = mkdtempSync(join(tmpdir(), 'im-redis-'));
  const proc = new ManagedProcess(
    'redis-server',
    requireBinary('redis-server'),
    [
      '--bind',
      host,
      '--port',
      String(port),
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--daemonize',
      'no',
      '--protected-mode',
      'no',
      '--loglevel',
      'warning',
      ...(options.args ?? []),
    ],
    options.netns ? { netns: options.netns } : {},
  );
  await waitForProcess(proc, async () => {
    const answer = await tcpExchange(port, 'PING\r\n', host);
    if (!answer.startsWith('+PONG')) throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
  });
  return {
    url: `redis://${host}:${port}`,
    port,
    process: proc,
    stop: async () => {
      await proc.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
