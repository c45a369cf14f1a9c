import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireBinary } from '../binaries.ts';
import { freePort } from '../free-port.ts';
import { ManagedProcess, waitForProcess } from '../managed-process.ts';
import { waitUntil } from '../probes.ts';
import { fieldsOf, redisCommand } from '../resp.ts';
import { startRedis, type RedisServerHandle } from './redis.ts';

export interface StartRedisSentinelOptions {
  /** The master group's name. */
  name?: string;
  /** How long a master may be silent before a sentinel thinks it down (short for tests). */
  downAfterMs?: number;
  /** Sentinel's failover-timeout: how long a failover may take before another is tried. */
  failoverTimeoutMs?: number;
  /**
   * Where each part runs: the master and the replica, then the three
   * sentinels, each on a host of its own (an address, and the network
   * namespace to run in) on the standard ports. Unset: all on loopback.
   */
  hosts?: { data: [SentinelHost, SentinelHost]; sentinels: [SentinelHost, SentinelHost, SentinelHost] };
}

export interface SentinelHost {
  address: string;
  netns: string;
}

export interface RedisSentinelHandle {
  /** The master group's name (REDIS_SENTINEL_NAME). */
  name: string;
  /** The three sentinels' ports (on 127.0.0.1 unless `hosts` placed them). */
  sentinelPorts: number[];
  /** REDIS_SENTINELS form: 127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3 */
  sentinelList: string;
  /** REDIS_URL form for clients through the sentinels (the host is the group, not used). */
  url: string;
  /** The data servers, master first as started; a failover swaps their roles. */
  servers: RedisServerHandle[];
  /** The port of the master the sentinels name now. */
  masterPort(): Promise<number>;
  /** host:port of the master the sentinels name now. */
  masterAddress(): Promise<string>;
  /** SIGKILLs the master the sentinels name now (no shutdown, no goodbye); answers its port. */
  killMaster(): Promise<number>;
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const QUORUM = 2;

/**
 * A master, one replica and three sentinels (quorum 2) on free loopback
 * ports, for tests of failover: the sentinels know each other and the
 * replica before this resolves, so a failover can start at once.
 */
export async function startRedisSentinel(options: StartRedisSentinelOptions = {}): Promise<RedisSentinelHandle> {
  const name = options.name ?? 'mymaster';
  const downAfterMs = options.downAfterMs ?? 1000;
  const failoverTimeoutMs = options.failoverTimeoutMs ?? 5000;
  const servers: RedisServerHandle[] = [];
  const sentinels: ManagedProcess[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'im-redis-sentinel-'));
  const stop = async () => {
    await Promise.all([...sentinels.map((s) => s.stop()), ...servers.map((s) => s.stop())]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Without the delay (5 s by default) a diskless full sync waits for more replicas to join.
    const at = (i: number) =>
      options.hosts ? { host: options.hosts.data[i]!.address, port: 6379, netns: options.hosts.data[i]!.netns } : {};
    const master = await startRedis({ ...at(0), args: ['--repl-diskless-sync-delay', '0'] });
    servers.push(master);
    const masterHost = options.hosts?.data[0].address ?? HOST;
    const replica = await startRedis({ ...at(1), args: ['--replicaof', masterHost, String(master.port)] });
    servers.push(replica);
    const replicaHost = options.hosts?.data[1].address ?? HOST;
    await waitUntil(
      'the Redis replica in sync',
      async () => {
        const info = String(await redisCommand(replica.port, ['INFO', 'replication'], replicaHost));
        if (!info.includes('master_link_status:up')) throw new Error('link to the master not up yet');
      },
      30_000,
    );

    const sentinelPorts: number[] = [];
    const sentinelAddresses: Array<{ host: string; port: number }> = [];
    for (let i = 0; i < 3; i += 1) {
      const placed = options.hosts?.sentinels[i];
      const host = placed?.address ?? HOST;
      const port = placed ? 26379 : await freePort(HOST);
      const conf = join(dir, `sentinel-${i}-${port}.conf`);
      // Sentinel rewrites its configuration file with what it learns: one writable file each.
      writeFileSync(
        conf,
        [
          `port ${port}`,
          `bind ${host}`,
          'protected-mode no',
          'daemonize no',
          `dir ${dir}`,
          'loglevel warning',
          `sentinel monitor ${name} ${masterHost} ${master.port} ${QUORUM}`,
          `sentinel down-after-milliseconds ${name} ${downAfterMs}`,
          `sentinel failover-timeout ${name} ${failoverTimeoutMs}`,
          `sentinel parallel-syncs ${name} 1`,
          '',
        ].join('\n'),
      );
      const proc = new ManagedProcess(
        'redis-sentinel',
        requireBinary('redis-server'),
        [conf, '--sentinel'],
        placed ? { netns: placed.netns } : {},
      );
      sentinels.push(proc);
      await waitForProcess(proc, async () => {
        if ((await redisCommand(port, ['PING'], host)) !== 'PONG') throw new Error('no PONG');
      });
      sentinelPorts.push(port);
      sentinelAddresses.push({ host, port });
    }
    // A failover needs the sentinels to know each other (hello messages every
    // 2 s through the master) and the replica (the master's INFO, every 10 s).
    await waitUntil(
      'the sentinels to know each other and the replica',
      async () => {
        for (const { host, port } of sentinelAddresses) {
          const state = fieldsOf(await redisCommand(port, ['SENTINEL', 'MASTER', name], host));
          if (Number(state['num-other-sentinels']) < 2 || Number(state['num-slaves']) < 1)
            throw new Error(`sentinel ${host}:${port} sees ${JSON.stringify(state)}`);
        }
      },
      60_000,
    );

    const masterAddress = async () => {
      let last: unknown;
      for (const { host, port } of sentinelAddresses) {
        try {
          const reply = await redisCommand(port, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name], host);
          if (Array.isArray(reply) && reply.length === 2) return `${String(reply[0])}:${String(reply[1])}`;
        } catch (err) {
          last = err;
        }
      }
      throw new Error(`no sentinel names a master for ${name}: ${String(last)}`);
    };
    const masterPort = async () => Number((await masterAddress()).split(':').at(-1));
    const dataAddress = (i: number) => `${[masterHost, replicaHost][i]}:${servers[i]!.port}`;
    return {
      name,
      sentinelPorts,
      sentinelList: sentinelAddresses.map(({ host, port }) => `${host}:${port}`).join(','),
      url: `redis://${name}`,
      servers,
      masterPort,
      masterAddress,
      killMaster: async () => {
        const address = await masterAddress();
        const port = Number(address.split(':').at(-1));
        const server = servers.find((_, i) => dataAddress(i) === address);
        const pid = server?.process.pid;
        if (!server || pid === undefined) throw new Error(`the master at ${address} is not one of ours`);
        // The whole process group (the tether and redis-server): gone at once, like a lost host.
        process.kill(-pid, 'SIGKILL');
        await server.process.exited;
        return port;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
