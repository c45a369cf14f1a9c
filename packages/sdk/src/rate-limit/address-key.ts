import ipaddr from 'ipaddr.js';

/** Bits of an IPv6 address that name one subscriber: a /64 is what a single home or host is handed. */
const IPV6_SUBSCRIBER_BITS = 64;

/**
 * What a per-address limit counts a client address under: an IPv4 address
 * as it is (an IPv4-mapped IPv6 address too, as the IPv4 it is), an IPv6
 * address by its /64, since one client holds a whole /64 and could take a
 * fresh address for every request. Anything else ('unknown') is kept as it is.
 */
export function clientAddressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const prefix = v6.parts.slice(0, IPV6_SUBSCRIBER_BITS / 16).map((part) => part.toString(16));
  return `${prefix.join(':')}::/${IPV6_SUBSCRIBER_BITS}`;
}
