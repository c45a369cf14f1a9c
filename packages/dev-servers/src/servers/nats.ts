import { requireBinary } from '../binaries.ts';
import { freePort } from '../free-port.ts';
import { ManagedProcess, waitForProcess } from '../managed-process.ts';
import { tcpExchange } from '../probes.ts';

export interface NatsServerHandle {
  url: string;
  port: number;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/** nats-server on a free loopback port. */
export async function startNats(options: { host?: string; port?: number } = {}): Promise<NatsServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort(host));
  const proc = new ManagedProcess('nats-server', requireBinary('nats-server'), ['-a', host, '-p', String(port)]);
  await waitForProcess(proc, async () => {
    // A NATS server greets every client with an INFO line.
    const answer = await tcpExchange(port, null, host);
    if (!answer.startsWith('INFO')) throw new Error(`unexpected greeting ${JSON.stringify(answer)}`);
  });
  return { url: `nats://${host}:${port}`, port, process: proc, stop: () => proc.stop() };
}
