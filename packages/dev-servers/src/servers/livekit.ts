import { randomBytes } from 'node:crypto';
import { requireBinary } from '../binaries.ts';
import { freePort } from '../free-port.ts';
import { ManagedProcess, waitForProcess } from '../managed-process.ts';

/** The LiveKit release setup builds (the 1.9 line: later ones do not build from the module proxy). */
export const LIVEKIT_VERSION = 'v1.9.11';

export interface LiveKitServerHandle {
  /** ws://host:port: where clients and the server SDK reach it. */
  url: string;
  port: number;
  /** ICE over TCP and the UDP mux share this number. */
  rtcPort: number;
  apiKey: string;
  apiSecret: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

export interface StartLiveKitOptions {
  /** Address the signalling port listens on (default loopback). */
  bind?: string;
  /** Address advertised to clients in ICE candidates (default: `bind`, or loopback). */
  nodeIp?: string;
  /** Signalling and API port; a free one when absent. */
  port?: number;
  /** Media port, TCP and UDP; a free one when absent. */
  rtcPort?: number;
  apiKey?: string;
  apiSecret?: string;
  /** Where LiveKit posts its signed webhooks (participant joined, left, track published...). */
  webhookUrls?: string[];
  /** Serves Prometheus metrics (packets and bytes forwarded) on this port when given. */
  prometheusPort?: number;
  /** Seconds a room with nobody left stays open (LiveKit's departure_timeout). */
  departureTimeoutSec?: number;
  onLine?: (line: string) => void;
}

/** A key pair in LiveKit's shape: the secret must be at least 32 characters. */
export function newLiveKitKeys(): { apiKey: string; apiSecret: string } {
  return { apiKey: `API${randomBytes(6).toString('hex')}`, apiSecret: randomBytes(32).toString('base64url') };
}

/**
 * A LiveKit server (livekit-server, built by setup) for one machine: no
 * external-IP discovery and no STUN, media on one port, the given address
 * advertised, so browsers on this machine (or the network `nodeIp` is on)
 * connect without anything outside.
 */
export async function startLiveKit(options: StartLiveKitOptions = {}): Promise<LiveKitServerHandle> {
  const bind = options.bind ?? '127.0.0.1';
  const nodeIp = options.nodeIp ?? (bind === '0.0.0.0' ? '127.0.0.1' : bind);
  const port = options.port ?? (await freePort(bind === '0.0.0.0' ? '127.0.0.1' : bind));
  const rtcPort = options.rtcPort ?? (await freePort(bind === '0.0.0.0' ? '127.0.0.1' : bind));
  const keys = options.apiKey && options.apiSecret ? options : newLiveKitKeys();
  const apiKey = keys.apiKey!;
  const apiSecret = keys.apiSecret!;
  // JSON is YAML: the config goes on the command line, nothing is written to disk.
  const config = {
    port,
    bind_addresses: [bind],
    rtc: {
      tcp_port: rtcPort,
      udp_port: rtcPort,
      use_external_ip: false,
      node_ip: nodeIp,
      enable_loopback_candidate: nodeIp.startsWith('127.'),
    },
    keys: { [apiKey]: apiSecret },
    ...(options.webhookUrls?.length ? { webhook: { api_key: apiKey, urls: options.webhookUrls } } : {}),
    room: { empty_timeout: 60, departure_timeout: options.departureTimeoutSec ?? 5 },
    ...(options.prometheusPort ? { prometheus_port: options.prometheusPort } : {}),
    logging: { level: 'warn', json: true },
  };
  const proc = new ManagedProcess(
    'livekit-server',
    requireBinary('livekit-server'),
    ['--config-body', JSON.stringify(config)],
    options.onLine ? { onLine: options.onLine } : {},
  );
  const host = bind === '0.0.0.0' ? '127.0.0.1' : bind;
  await waitForProcess(proc, async () => {
    const res = await fetch(`http://${host}:${port}/`);
    if (res.status !== 200) throw new Error(`answered ${res.status}`);
  });
  return {
    url: `ws://${host}:${port}`,
    port,
    rtcPort,
    apiKey,
    apiSecret,
    process: proc,
    stop: () => proc.stop(),
  };
}
