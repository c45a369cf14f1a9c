import { ManagedProcess, requireBinary, waitForProcess } from '@im/dev-servers';

/**
 * Toxiproxy (built by scripts/setup.sh) on a host of a HostNetwork: TCP
 * proxies between hosts whose links can be given latency. Driven through its
 * HTTP API.
 */
export interface Toxiproxy {
  /** Proxies `upstream` (host:port) on this host's `port`; returns the address to connect to instead. */
  proxy(name: string, port: number, upstream: string): Promise<string>;
  /** Adds `ms` of latency each way on every proxy (0 removes it). */
  setLatency(ms: number): Promise<void>;
  stop(): Promise<void>;
}

const API_PORT = 8474;

export async function startToxiproxy(host: { netns: string; address: string }): Promise<Toxiproxy> {
  const proc = new ManagedProcess(
    'toxiproxy',
    requireBinary('toxiproxy-server'),
    ['-host', host.address, '-port', String(API_PORT)],
    { netns: host.netns },
  );
  const api = `http://${host.address}:${API_PORT}`;
  await waitForProcess(proc, async () => {
    const res = await fetch(`${api}/version`);
    if (!res.ok) throw new Error(`toxiproxy answered ${res.status}`);
  });
  const names: string[] = [];
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok && !(method === 'DELETE' && res.status === 404)) {
      throw new Error(`toxiproxy ${method} ${path}: ${res.status} ${await res.text()}`);
    }
  };
  return {
    proxy: async (name, port, upstream) => {
      const listen = `${host.address}:${port}`;
      await call('POST', '/proxies', { name, listen, upstream, enabled: true });
      names.push(name);
      return listen;
    },
    setLatency: async (ms) => {
      for (const name of names) {
        for (const stream of ['upstream', 'downstream'] as const) {
          const toxic = `latency_${stream}`;
          await call('DELETE', `/proxies/${name}/toxics/${toxic}`);
          if (ms > 0) {
            await call('POST', `/proxies/${name}/toxics`, {
              name: toxic,
              type: 'latency',
              stream,
              toxicity: 1,
              attributes: { latency: ms, jitter: 0 },
            });
          }
        }
      }
    },
    stop: () => proc.stop(),
  };
}
