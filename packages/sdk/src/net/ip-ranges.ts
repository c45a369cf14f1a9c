import ipaddr from 'ipaddr.js';

/**
 * Whether an IP address is a public unicast one: not loopback, private,
 * link-local, CGNAT, multicast, unspecified, broadcast, reserved, IPv6
 * unique-local or link-local, nor any of those dressed as IPv6 (IPv4-mapped;
 * NAT64, 6to4 and Teredo forms are refused whole). Anything unparsable is
 * not public.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** An allow list (OUTBOUND_ALLOW) split into host names and IP ranges. */
export class AllowList {
  readonly #names: Set<string>;
  readonly #ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

  constructor(entries: readonly string[]) {
    this.#names = new Set();
    this.#ranges = [];
    for (const entry of entries) {
      if (entry.includes('/')) this.#ranges.push(ipaddr.parseCIDR(entry));
      else if (ipaddr.isValid(entry)) {
        const ip = ipaddr.parse(entry);
        this.#ranges.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
      } else this.#names.add(entry.toLowerCase());
    }
  }

  hasName(host: string): boolean {
    return this.#names.has(host.toLowerCase().replace(/\.$/, ''));
  }

  hasAddress(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    let ip = ipaddr.parse(address);
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
    return this.#ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match([net, bits] as never));
  }
}
