import { ConfigError } from '@im/sdk';

/** uWebSockets.js as far as the gateway uses it (it ships its own types; it is not a dependency). */
export interface UwsModule {
  App(): UwsApp;
  us_listen_socket_close(listenSocket: unknown): void;
  us_socket_local_port(listenSocket: unknown): number;
}

export interface UwsApp {
  any(pattern: string, handler: (res: UwsResponse, req: UwsRequest) => void): UwsApp;
  listen(host: string, port: number, cb: (listenSocket: unknown) => void): UwsApp;
}

export interface UwsRequest {
  getMethod(): string;
  getUrl(): string;
  getQuery(): string | undefined;
  forEach(cb: (name: string, value: string) => void): void;
}

export interface UwsResponse {
  onAborted(cb: () => void): UwsResponse;
  onData(cb: (chunk: ArrayBuffer, isLast: boolean) => void): UwsResponse;
  onWritable(cb: (offset: number) => boolean): UwsResponse;
  cork(cb: () => void): UwsResponse;
  writeStatus(status: string): UwsResponse;
  writeHeader(name: string, value: string): UwsResponse;
  write(chunk: Uint8Array | string): boolean;
  end(body?: Uint8Array | string): UwsResponse;
  close(): UwsResponse;
  getRemoteAddressAsText(): ArrayBuffer;
}

/** The newest glibc uWebSockets.js's prebuilt Linux binaries are linked against (20.4x and later). */
const UWS_GLIBC = [2, 38] as const;

/** The glibc this process runs on, or undefined (musl, macOS, Windows: no such limit to check). */
function glibcVersion(): string | undefined {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime;
}

const older = (version: string, than: readonly number[]) => {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major < than[0]! || (major === than[0] && minor < than[1]!);
};

/**
 * The WebSocket engine SOCKET_WS_ENGINE names. `ws` is socket.io's own and
 * needs nothing; `uws` is uWebSockets.js, which must be installed by the
 * operator and load on this system: if it cannot, the gateway refuses to
 * start with one line naming the variable and the reason, instead of falling
 * back to `ws` unnoticed.
 */
export async function loadWsEngine(engine: 'ws' | 'uws'): Promise<UwsModule | undefined> {
  if (engine === 'ws') return undefined;
  const glibc = glibcVersion();
  if (glibc && older(glibc, UWS_GLIBC))
    throw new ConfigError(
      'SOCKET_WS_ENGINE',
      `is uws, but uWebSockets.js needs glibc ${UWS_GLIBC.join('.')} or newer and this system has ${glibc}: set SOCKET_WS_ENGINE=ws (the default) or run the gateway on a newer system`,
    );
  const name = 'uWebSockets.js';
  try {
    const loaded = (await import(name)) as UwsModule & { default?: UwsModule };
    return typeof loaded.App === 'function' ? loaded : loaded.default!;
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new ConfigError(
      'SOCKET_WS_ENGINE',
      `is uws, but uWebSockets.js could not be loaded (${reason}): install it (npm install uNetworking/uWebSockets.js#<release tag>, see docs/operations.md) or set SOCKET_WS_ENGINE=ws`,
    );
  }
}
