import { BlockList } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Whether an address (as node reports a peer, IPv4-mapped forms included) is this host's loopback. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.includes(':') ? loopback.check(v4, 'ipv6') : loopback.check(v4, 'ipv4');
}
