/** One address of a comma list such as REDIS_SENTINELS. */
export interface HostPort {
  host: string;
  port: number;
}

const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** `host:port` (IPv6 in brackets: `[::1]:26379`); `defaultPort` when the port is left out. */
export function parseHostPort(item: string, defaultPort: number): HostPort {
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d*))?$/i.exec(item);
  const plain = /^([^:[\]]+)(?::(\d*))?$/.exec(item);
  const match = bracketed ?? plain;
  if (!match) throw new Error(`'${item}' is not host:port`);
  const host = match[1]!;
  if (!bracketed && !HOST_NAME.test(host) && !IPV4.test(host))
    throw new Error(`'${item}' does not start with a host name or an IP address`);
  if (match[2] === '') throw new Error(`'${item}' has an empty port`);
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`'${item}' has a port outside 1..65535`);
  return { host, port };
}

/** A comma list of `host:port`; an empty entry (`a:1,,b:2`) or a repeated address is a mistake. */
export function parseHostPortList(text: string, defaultPort: number): HostPort[] {
  const list = text.trim().replace(/,$/, '');
  const out = list.split(',').map((raw, index) => {
    const item = raw.trim();
    if (item === '') throw new Error(`entry ${index + 1} is empty`);
    return parseHostPort(item, defaultPort);
  });
  const seen = new Set<string>();
  for (const { host, port } of out) {
    const key = `${host.toLowerCase()}:${port}`;
    if (seen.has(key)) throw new Error(`'${key}' is listed twice`);
    seen.add(key);
  }
  return out;
}

/** Back to the written form, IPv6 in brackets. */
export const formatHostPort = ({ host, port }: HostPort) =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
