// One client process's way to the server: HTTP requests over one keep-alive
// pool (undici) and socket.io acks, each timed and its outcome recorded under
// a request kind. A failure is recorded once, here, and thrown so the action
// that made it stops.
import type { Ack } from '@im/protocol';
import { Agent, request, type FormData } from 'undici';
import type { ClientSocket } from '../lib/client-socket.ts';
import type { Recorder } from './agent-recorder.ts';

export class RequestFailed extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

/** `/api/converses/<id>/messages` -> `/api/converses/:id/messages`: error samples group by route. */
const route = (path: string): string => path.split('?')[0]!.replace(/[0-9a-f]{24}/g, ':id');

export class HttpClient {
  readonly #pool: Agent;
  readonly #recorder: Recorder;
  readonly #timeoutMs: number;

  constructor(recorder: Recorder, timeoutMs: number) {
    this.#recorder = recorder;
    this.#timeoutMs = timeoutMs;
    // Like a browser: connections kept for a minute between requests, as many as needed.
    this.#pool = new Agent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000, connect: { timeout: timeoutMs } });
  }

  /** Makes a request; answers the parsed JSON body (undefined for 204). Records its time and any failure. */
  async call<T>(
    kind: string,
    base: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    options: { token?: string; json?: unknown; form?: FormData; recorder?: Recorder } = {},
  ): Promise<T> {
    const recorder = options.recorder ?? this.#recorder;
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    const t0 = performance.now();
    let status: number;
    let text: string;
    try {
      const res = await request(base + path, {
        method,
        headers,
        dispatcher: this.#pool,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
        signal: AbortSignal.timeout(this.#timeoutMs),
        ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
        ...(options.form ? { body: options.form } : {}),
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      const message = `${method} ${route(path)}: ${(err as Error).name === 'TimeoutError' ? 'timeout' : (err as Error).message}`;
      recorder.error(kind, message, false);
      throw new RequestFailed(message);
    }
    recorder.request(kind, performance.now() - t0);
    if (status < 200 || status >= 300) {
      const message = `${method} ${route(path)}: ${status} ${text.slice(0, 160)}`;
      recorder.error(kind, message, true);
      throw new RequestFailed(message, status);
    }
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** Emits with an ack and records it; answers the ack's data and how long it took. */
export async function emitAck<T>(
  recorder: Recorder,
  kind: string,
  socket: ClientSocket,
  event: 'message:send' | 'sync' | 'typing',
  body: unknown,
  timeoutMs: number,
): Promise<{ data: T; ms: number }> {
  const t0 = performance.now();
  let res: Ack<T>;
  try {
    res = (await (
      socket.timeout(timeoutMs) as unknown as { emitWithAck(e: string, b: unknown): Promise<Ack<T>> }
    ).emitWithAck(event, body)) as Ack<T>;
  } catch {
    const message = `${event}: no ack within ${timeoutMs} ms${socket.connected ? '' : ' (disconnected)'}`;
    recorder.error(kind, message, false);
    throw new RequestFailed(message);
  }
  const ms = performance.now() - t0;
  recorder.request(kind, ms);
  if (!res.ok) {
    const message = `${event}: ${res.error.code} ${res.error.message}`;
    recorder.error(kind, message, true);
    throw new RequestFailed(message);
  }
  return { data: res.data, ms };
}
