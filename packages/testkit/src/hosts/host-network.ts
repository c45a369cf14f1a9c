import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { findBinary } from '@im/dev-servers';

/**
 * Hosts on one machine: each part of a cluster in its own Linux network
 * namespace with its own address on a bridge, so that faults are network
 * faults. A host is cut off by taking its link down, killed by killing every
 * process in its namespace, and made lossy with an nftables rule that drops
 * a share of the packets it receives. The test process reaches every host
 * through the bridge's own address. Needs root (`ip netns`), as in CI.
 */
export interface Host {
  name: string;
  /** The namespace to run this host's processes in. */
  netns: string;
  /** Its address on the bridge. */
  address: string;
  /** Takes its link down: packets to and from it are dropped, no connection is closed. */
  cut(): void;
  /** Brings its link back. */
  restore(): void;
  /** SIGKILLs every process in the namespace, as a power cut would (the link stays). */
  kill(): void;
  /** Drops `percent` of the packets it receives, at random (0 removes the rule). */
  dropPackets(percent: number): void;
}

export interface HostNetwork {
  /** The bridge's address in the test's own namespace. */
  gateway: string;
  host(name: string): Host;
  /** Kills every process in the hosts and removes the namespaces, links and bridge. */
  close(): void;
}

export function hostNetworkAvailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  if (!findBinary('ip')) return 'ip (iproute2) not found: run bash scripts/setup.sh test';
  if (!findBinary('nft')) return 'nft (nftables) not found: run bash scripts/setup.sh test';
  return undefined;
}

function run(args: string[], input?: string): string {
  return execFileSync(findBinary(args[0]!) ?? args[0]!, args.slice(1), {
    encoding: 'utf8',
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    ...(input === undefined ? {} : { input }),
  });
}

function tryRun(args: string[]): void {
  try {
    run(args);
  } catch {
    // Already gone.
  }
}

/** Every namespace whose name starts with `prefix`. */
function namespacesWith(prefix: string): string[] {
  return run(['ip', 'netns', 'list'])
    .split('\n')
    .map((line) => line.split(' ')[0]!)
    .filter((name) => name.startsWith(prefix));
}

/** Every link of the test's own namespace whose name starts with `prefix`. */
function linksWith(prefix: string): string[] {
  return run(['ip', '-o', 'link', 'show'])
    .split('\n')
    .map((line) => /^\d+: ([^:@]+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name.startsWith(prefix));
}

function killNamespace(netns: string): void {
  let pids: string[] = [];
  try {
    pids = run(['ip', 'netns', 'pids', netns]).split('\n').filter(Boolean);
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Exited meanwhile.
    }
  }
}

function removeAll(tag: string): void {
  for (const netns of namespacesWith(`im-${tag}-`)) {
    killNamespace(netns);
    tryRun(['ip', 'netns', 'delete', netns]);
  }
  // Deleting a namespace deletes the veth ends inside it and with them their peers, unless something
  // still holds the namespace (a process that outlived a killed run): those links go by name.
  for (const link of linksWith(`imv-${tag}-`)) tryRun(['ip', 'link', 'delete', link]);
  tryRun(['ip', 'link', 'delete', `imbr-${tag}`]);
}

/**
 * Creates one namespace per name on a bridge of its own. `tag` names
 * everything this network creates (≤ 6 letters or digits, unique per test
 * file): leftovers of an earlier run with the same tag are removed first,
 * and everything is removed by close() or when the process exits.
 */
export function openHostNetwork(tag: string, names: readonly string[]): HostNetwork {
  if (!/^[a-z0-9]{1,6}$/.test(tag)) throw new Error(`host network tag must be 1-6 lowercase letters or digits: ${tag}`);
  if (names.length > 200) throw new Error('at most 200 hosts');
  const unavailable = hostNetworkAvailable();
  if (unavailable) throw new Error(unavailable);
  removeAll(tag);
  // A /24 of its own per tag, in a block no machine here routes.
  const octet = createHash('sha256').update(tag).digest()[0]! % 250;
  const prefix = `10.213.${octet}`;
  const bridge = `imbr-${tag}`;
  const cleanup = () => removeAll(tag);
  process.once('exit', cleanup);

  run(['ip', 'link', 'add', bridge, 'type', 'bridge']);
  run(['ip', 'addr', 'add', `${prefix}.1/24`, 'dev', bridge]);
  run(['ip', 'link', 'set', bridge, 'up']);

  const hosts = new Map<string, Host>();
  names.forEach((name, i) => {
    if (!/^[a-z0-9]{1,12}$/.test(name)) throw new Error(`host name must be 1-12 lowercase letters or digits: ${name}`);
    const netns = `im-${tag}-${name}`;
    const outside = `imv-${tag}-${i}`;
    const inside = `imh-${tag}-${i}`;
    const address = `${prefix}.${10 + i}`;
    run(['ip', 'netns', 'add', netns]);
    run(['ip', 'link', 'add', outside, 'type', 'veth', 'peer', 'name', inside]);
    run(['ip', 'link', 'set', inside, 'netns', netns]);
    run(['ip', 'link', 'set', outside, 'master', bridge]);
    run(['ip', 'link', 'set', outside, 'up']);
    const inNs = (args: string[]) => run(['ip', 'netns', 'exec', netns, ...args]);
    inNs(['ip', 'link', 'set', 'lo', 'up']);
    inNs(['ip', 'addr', 'add', `${address}/24`, 'dev', inside]);
    inNs(['ip', 'link', 'set', inside, 'up']);
    hosts.set(name, {
      name,
      netns,
      address,
      cut: () => run(['ip', 'link', 'set', outside, 'down']),
      restore: () => run(['ip', 'link', 'set', outside, 'up']),
      kill: () => killNamespace(netns),
      dropPackets: (percent) => {
        try {
          inNs(['nft', 'delete', 'table', 'inet', 'imfault']);
        } catch {
          // No rule yet.
        }
        if (percent <= 0) return;
        const perMille = Math.round(percent * 10);
        run(
          ['ip', 'netns', 'exec', netns, 'nft', '-f', '-'],
          `table inet imfault {\n  chain input {\n    type filter hook input priority 0; policy accept;\n` +
            `    iifname "${inside}" numgen random mod 1000 < ${perMille} drop\n  }\n}\n`,
        );
      },
    });
  });

  return {
    gateway: `${prefix}.1`,
    host: (name) => {
      const host = hosts.get(name);
      if (!host) throw new Error(`no host ${name}`);
      return host;
    },
    close: () => {
      process.removeListener('exit', cleanup);
      cleanup();
    },
  };
}
