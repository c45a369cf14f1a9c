import type { IncomingHttpHeaders } from 'node:http';
import type { TrustProxy } from '@im/sdk';
import proxyAddr from 'proxy-addr';

/** What the address is read from: an HTTP request, or a socket.io handshake made to look like one. */
export interface AddressSource {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string | undefined };
}

/**
 * The client's address as TRUST_PROXY says to read it: the connection's
 * peer when no proxy is trusted; else the right-most X-Forwarded-For entry
 * that is not a trusted proxy (a client can prepend anything it likes, but
 * not what the proxies append after it).
 */
export function clientAddressOf(trust: TrustProxy): (source: AddressSource) => string {
  if (trust === false) return (source) => source.socket.remoteAddress ?? 'unknown';
  const trusted: (address: string, hop: number) => boolean =
    'hops' in trust ? (_address, hop) => hop < trust.hops : proxyAddr.compile(trust.cidrs);
  return (source) => {
    if (!source.socket.remoteAddress) return 'unknown';
    return proxyAddr(source as Parameters<typeof proxyAddr>[0], trusted);
  };
}
