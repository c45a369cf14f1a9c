import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type Socket } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { ImError } from '../errors/im-error.ts';
import { AllowList, isPublicAddress } from './ip-ranges.ts';

/**
 * What users are told about any refused destination: the same words whether
 * a name resolves inside, does not resolve, or is an inside address, so the
 * guard cannot be used to learn what names resolve to (the detail is logged).
 */
export const OUTBOUND_REFUSED = 'this destination is not accepted (only public http(s) addresses are)';

/**
 * A request to a destination the guard refuses: dropped by callers, never
 * retried. Its message is the generic refusal; `detail` (what was refused,
 * and why) is for the server's log only.
 */
export class OutboundRefusedError extends Error {
  override readonly name = 'OutboundRefusedError';
  readonly detail: string;
  constructor(detail: string) {
    super(OUTBOUND_REFUSED);
    this.detail = detail;
  }
}

/** Where a refusal's detail goes (the server's log, a metric); never to the user. */
export type RefusalReporter = (detail: string) => void;

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** node:dns lookup's shape (injectable so tests can answer like a rebinding DNS server). */
export type Lookup = (hostname: string, options: LookupOptions & { all: true }, callback: LookupCallback) => void;

export interface OutboundOptions {
  /** OUTBOUND_ALLOW: host names, IPs and CIDRs that may be private. */
  allow: readonly string[];
  /** Connect to last byte (OUTBOUND_TIMEOUT_MS). */
  timeoutMs: number;
  /** Keep-alive connections per origin. */
  connections?: number;
  lookup?: Lookup;
  /** Told of every refusal, with its detail. */
  onRefused?: RefusalReporter;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** At most `maxBytes` of the body; the rest is dropped. */
  body: Buffer;
}

/**
 * The one way the server sends requests to addresses users or admins supply
 * (Web Push endpoints, the push proxy, webhooks and commands, link
 * previews; see outboundGuardFor for the allow list of each).
 * http(s) only; the address actually connected to must be public, checked
 * in the connector after DNS resolution (so a name cannot rebind to an
 * inside address between a check and the connection) and again on the
 * connected socket; OUTBOUND_ALLOW names private destinations allowed
 * anyway; redirects are not followed; time and response size are capped.
 * Connections are pooled and kept alive: each was checked when it opened.
 */
export class OutboundGuard {
  readonly #allow: AllowList;
  readonly #lookup: Lookup;
  readonly #timeoutMs: number;
  readonly #onRefused: RefusalReporter;
  readonly dispatcher: Agent;

  constructor(options: OutboundOptions) {
    this.#allow = new AllowList(options.allow);
    this.#onRefused = options.onRefused ?? (() => undefined);
    this.#lookup = options.lookup ?? (dnsLookup as unknown as Lookup);
    this.#timeoutMs = options.timeoutMs;
    const connect = buildConnector({ timeout: options.timeoutMs, lookup: this.#guardedLookup as never });
    this.dispatcher = new Agent({
      connections: options.connections ?? 16,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: (opts, callback) => {
        const host = opts.hostname.replace(/^\[|\]$/g, '');
        // An IP literal skips the lookup: it is checked here, before any packet leaves.
        if (isIP(host) && !this.#permitted(host, host)) {
          callback(this.#refusal(`${host} is not a public address`), null);
          return;
        }
        connect(opts, (err, socket) => {
          if (err) return callback(err, null);
          const remote = (socket as Socket).remoteAddress;
          if (!remote || !this.#permitted(host, remote)) {
            socket.destroy();
            return callback(this.#refusal(`${host} connected to ${remote}, not a public address`), null);
          }
          callback(null, socket);
        });
      },
    } as ConstructorParameters<typeof Agent>[0]);
  }

  /** A refusal, reported with its detail. */
  #refusal(detail: string): OutboundRefusedError {
    this.#onRefused(detail);
    return new OutboundRefusedError(detail);
  }

  /** Whether a connection to `address`, for the URL host `host`, may go ahead. */
  #permitted(host: string, address: string): boolean {
    return isPublicAddress(address) || this.#allow.hasName(host) || this.#allow.hasAddress(address);
  }

  /** A DNS lookup that fails when any answer is an address the guard refuses. */
  readonly #guardedLookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    this.#lookup(hostname, { ...options, all: true }, (err, answers) => {
      if (err) return callback(err, []);
      const list = answers as LookupAddress[];
      const refused = list.find((a) => !this.#permitted(hostname, a.address));
      if (refused || list.length === 0)
        return callback(
          Object.assign(this.#refusal(`${hostname} resolves to ${refused?.address ?? 'nothing'}`), {
            code: 'EREFUSED_BY_GUARD',
          }),
          [],
        );
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };

  /**
   * Registration time: refuses anything but http(s), IP literals the guard
   * would refuse, and names that resolve to such addresses or not at all.
   * 400 IM_ERR_VALIDATION (naming `field`) on refusal, in the same words for
   * every destination refused (the detail goes to onRefused). Delivery
   * checks again.
   */
  async check(rawUrl: string, field = 'url'): Promise<void> {
    const invalid = (why: string) =>
      new ImError('IM_ERR_VALIDATION', `${field}: ${why}`, [{ field, type: 'outbound', message: why }]);
    const refuse = (detail: string) => {
      this.#onRefused(detail);
      return invalid(OUTBOUND_REFUSED);
    };
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw invalid('not a URL');
    }
    // What the URL itself says (not what a name resolves to) may be told as it is.
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('only http and https URLs are accepted');
    if (url.username || url.password) throw invalid('credentials in the URL are not accepted');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      if (!this.#permitted(host, host)) throw refuse(`${host} is not a public address`);
      return;
    }
    if (this.#allow.hasName(host)) return;
    const answers = await new Promise<LookupAddress[]>((resolve) =>
      this.#lookup(host, { all: true }, (err, list) => resolve(err ? [] : (list as LookupAddress[]))),
    );
    if (answers.length === 0) throw refuse(`${host} does not resolve`);
    const bad = answers.find((a) => !this.#permitted(host, a.address));
    if (bad) throw refuse(`${host} resolves to ${bad.address}, not a public address`);
  }

  /**
   * Sends a request through the guard and resolves with the status, headers
   * and at most `maxBytes` of the body; rejects with OutboundRefusedError
   * for a refused destination, or a network error or timeout.
   */
  request(
    url: URL,
    init: { method?: string; headers?: Record<string, string>; body?: Buffer | string; maxBytes?: number } = {},
  ): Promise<OutboundResponse> {
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      return Promise.reject(this.#refusal(`${url.protocol} is not http(s)`));
    const maxBytes = init.maxBytes ?? 64 * 1024;
    return new Promise((resolve, reject) => {
      let status = 0;
      let headers: OutboundResponse['headers'] = {};
      const chunks: Buffer[] = [];
      let received = 0;
      let settled = false;
      const timer = setTimeout(() => abort?.(new Error(`timed out after ${this.#timeoutMs} ms`)), this.#timeoutMs);
      let abort: ((reason: Error) => void) | undefined;
      const finish = (err: Error | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(unwrap(err));
        else resolve({ status, headers, body: Buffer.concat(chunks) });
      };
      this.dispatcher.dispatch(
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method: (init.method ?? 'GET') as 'GET',
          headers: init.headers ?? {},
          body: init.body ?? null,
        },
        {
          onRequestStart(controller) {
            abort = (reason) => controller.abort(reason);
          },
          onResponseStart(_controller, statusCode, responseHeaders) {
            status = statusCode;
            headers = responseHeaders as OutboundResponse['headers'];
          },
          onResponseData(_controller, chunk: Buffer) {
            // Kept up to the cap; the rest is read and dropped so the connection can be reused.
            if (received < maxBytes) chunks.push(chunk.subarray(0, maxBytes - received));
            received += chunk.length;
          },
          onResponseEnd() {
            finish(null);
          },
          onResponseError(_controller, err) {
            finish(err);
          },
        },
      );
    });
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}

/** undici may wrap a connector's error; the guard's refusal must stay recognisable. */
function unwrap(err: Error): Error {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current instanceof OutboundRefusedError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  if ((err as { code?: string }).code === 'EREFUSED_BY_GUARD')
    return new OutboundRefusedError((err as Partial<OutboundRefusedError>).detail ?? err.message);
  return err;
}
