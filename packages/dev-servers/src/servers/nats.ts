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
}

/** nats-server on a free loopback port. */
export async function startNats(options: StartNatsOptions = {}): Promise<NatsServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort(host));
  const monitorPort = options.monitor ? await freePort(host) : undefined;
  const args = ['-a', host, '-p', String(port), ...(monitorPort ? ['-m', String(monitorPort)] : [])];
  const proc = new ManagedProcess('nats-server', requireBinary('nats-server'), args);
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
