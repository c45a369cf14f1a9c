import { requireBinary } from '../binaries.ts';
import { freePort } from '../free-port.ts';
import { ManagedProcess, waitForProcess } from '../managed-process.ts';
import { tcpExchange } from '../probes.ts';

export interface NatsServerHandle {
  url: string;
  port: number;
  /** The HTTP monitoring endpoint (`/varz`, `/subsz`, ...), when asked for with `monitor`. */
  monitorUrl?: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

export interface StartNatsOptions {
  host?: string;
  port?: number;
  /** Also serve the HTTP monitoring endpoint on a free loopback port (nats-server `-m`). */
  monitor?: boolean;
  /** One server of a NATS cluster: its name, its route port and the other servers' route URLs. */
  cluster?: {
    name: string;
    serverName: string;
    port: number;
    routes: string[];
    /** Do not tell clients the other servers' addresses (they reach the cluster through a proxy). */
    noAdvertise?: boolean;
  };
  /** Run inside this network namespace (host and ports are then the namespace's). */
  netns?: string;
}

/** nats-server on a free loopback port. */
export async function startNats(options: StartNatsOptions = {}): Promise<NatsServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort(host));
  const monitorPort = options.monitor ? await freePort(host) : undefined;
  const { cluster } = options;
  const args = [
    '-a',
    host,
    '-p',
    String(port),
    ...(monitorPort ? ['-m', String(monitorPort)] : []),
    ...(cluster
      ? [
          '--name',
          cluster.serverName,
          '--cluster_name',
          cluster.name,
          '--cluster',
          `nats://${host}:${cluster.port}`,
          '--routes',
          cluster.routes.join(','),
          ...(cluster.noAdvertise ? ['--no_advertise'] : []),
        ]
      : []),
  ];
  const proc = new ManagedProcess(cluster?.serverName ?? 'nats-server', requireBinary('nats-server'), args, {
    ...(options.netns ? { netns: options.netns } : {}),
  });
  const monitorUrl = monitorPort ? `http://${host}:${monitorPort}` : undefined;
  await waitForProcess(proc, async () => {
    // A NATS server greets every client with an INFO line.
    const answer = await tcpExchange(port, null, host);
    if (!answer.startsWith('INFO')) throw new Error(`unexpected greeting ${JSON.stringify(answer)}`);
    if (monitorUrl && !(await fetch(`${monitorUrl}/healthz`)).ok) throw new Error('monitoring endpoint not up');
  });
  return {
    url: `nats://${host}:${port}`,
    port,
    ...(monitorUrl ? { monitorUrl } : {}),
    process: proc,
    stop: () => proc.stop(),
  };
}
