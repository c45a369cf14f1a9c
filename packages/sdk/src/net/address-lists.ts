import ipaddr from 'ipaddr.js';

/** Which proxies in front of the gateway are believed about the client's address. */
export type TrustProxy = false | { hops: number } | { cidrs: string[] };

const isIpOrCidr = (item: string): boolean => {
  if (item.includes('/')) {
    try {
      ipaddr.parseCIDR(item);
      return true;
    } catch {
      return false;
    }
  }
  return ipaddr.isValid(item);
};

const items = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** `false` | a hop count | a comma list of proxy IPs or CIDRs (TRUST_PROXY). */
export function parseTrustProxy(text: string): TrustProxy {
  const value = text.trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32) throw new Error('a hop count above 32 is surely a mistake');
    return { hops };
  }
  const cidrs = items(value);
  const bad = cidrs.find((c) => !isIpOrCidr(c));
  if (bad !== undefined) throw new Error(`'${bad}' is not false, a hop count, an IP or a CIDR`);
  return { cidrs };
}

/** A comma list of host names, IPs and CIDRs (OUTBOUND_ALLOW); host names are lower-cased. */
export function parseHostList(text: string): string[] {
  const out: string[] = [];
  for (const item of items(text)) {
    if (isIpOrCidr(item)) out.push(item);
    else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(item))
      out.push(item.toLowerCase().replace(/\.$/, ''));
    else throw new Error(`'${item}' is not a host name, an IP or a CIDR`);
  }
  return out;
}
