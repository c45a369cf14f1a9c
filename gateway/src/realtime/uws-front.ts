import { request, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UwsApp, UwsModule, UwsResponse } from './ws-engine.ts';

/** What `listen` answers: the address clients reach, and how to stop listening. */
export interface UwsFront {
  port: number;
  close(): void;
}

/** Headers of one connection, not of the request: each side sets its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade']);
/** uWS frames the answer itself (a length for `end`, chunks for `write`). */
const SET_BY_UWS = new Set([...HOP_BY_HOP, 'content-length']);

/**
 * SOCKET_WS_ENGINE=uws: uWebSockets.js listens on the gateway's address and
 * serves socket.io (attached with `io.attachApp`, see socket-server.ts: each
 * room emit is one uWS publish, in C++); every other HTTP request is
 * forwarded, streamed both ways, to the
 * gateway's own HTTP server listening on loopback, with the client's address
 * appended to X-Forwarded-For (so TRUST_PROXY must trust loopback for client
 * addresses to be right). Not run on machines whose glibc is older than
 * uWebSockets.js needs: `loadWsEngine` refuses those at start.
 */
export async function listenUws(
  uws: UwsModule,
  app: UwsApp,
  http: HttpServer,
  host: string,
  port: number,
): Promise<UwsFront> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  const inner = (http.address() as AddressInfo).port;
  app.any('/*', (res, req) => {
    const method = req.getMethod().toUpperCase();
    const query = req.getQuery();
    const path = query ? `${req.getUrl()}?${query}` : req.getUrl();
    const headers: Record<string, string> = {};
    let hasBody = false;
    req.forEach((name, value) => {
      if (name === 'content-length' || name === 'transfer-encoding') hasBody ||= value !== '0';
      if (!HOP_BY_HOP.has(name)) headers[name] = value;
    });
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
    headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${peer}` : peer;
    forward(res, { method, path, headers, port: inner }, hasBody);
  });
  const listenSocket = await new Promise<unknown>((resolve, reject) => {
    app.listen(host, port, (socket) =>
      socket ? resolve(socket) : reject(new Error(`cannot listen on ${host}:${port}`)),
    );
  });
  return {
    port: uws.us_socket_local_port(listenSocket),
    // The inner HTTP server is closed by its owner, as without uWS.
    close: () => uws.us_listen_socket_close(listenSocket),
  };
}

/** Streams one request to the inner server and its answer back, pausing either side while the other is full. */
function forward(
  res: UwsResponse,
  target: { method: string; path: string; headers: Record<string, string>; port: number },
  hasBody: boolean,
): void {
  let aborted = false;
  const upstream = request({ host: '127.0.0.1', ...target });
  res.onAborted(() => {
    aborted = true;
    upstream.destroy();
  });
  if (hasBody) {
    res.onData((chunk, isLast) => {
      // uWS reuses the chunk's memory after this call: copy it.
      upstream.write(Buffer.from(chunk.slice(0)));
      if (isLast) upstream.end();
    });
  } else {
    upstream.end();
  }
  upstream.on('error', () => {
    if (!aborted) res.cork(() => res.writeStatus('502 Bad Gateway').end());
    aborted = true;
  });
  upstream.on('response', (answer) => {
    if (aborted) return answer.destroy();
    res.cork(() => {
      res.writeStatus(`${answer.statusCode ?? 502} ${answer.statusMessage ?? ''}`);
      for (const [name, value] of Object.entries(answer.headers)) {
        if (SET_BY_UWS.has(name) || value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) res.writeHeader(name, v);
      }
    });
    answer.on('data', (chunk: Buffer) => {
      if (aborted) return;
      let ok = true;
      res.cork(() => (ok = res.write(chunk)));
      if (!ok) {
        answer.pause();
        res.onWritable(() => {
          answer.resume();
          return true;
        });
      }
    });
    answer.on('end', () => {
      if (!aborted) res.cork(() => res.end());
    });
    answer.on('error', () => {
      if (!aborted) res.close();
    });
  });
}
