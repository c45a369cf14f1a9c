import type { ApiError } from '@im/protocol';
import type { Transport } from './client.ts';

/** A call the server refused: its status and error code, and the body it answered. */
export class ApiCallError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: unknown;

  constructor(status: number, code: string, message: string, body: unknown) {
    super(message);
    this.name = 'ApiCallError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

export interface FetchTransportOptions {
  /** `http://127.0.0.1:3000`: what paths are resolved against. */
  baseUrl: string;
  /** The bearer token of each call, read when it is made (none: unauthenticated). */
  token?: () => string | null | undefined;
}

/** A transport over plain fetch (node, scripts, tests): JSON in, JSON out, a refusal thrown as ApiCallError. */
export function fetchTransport(options: FetchTransportOptions): Transport {
  return {
    async request(method, path, body) {
      const token = options.token?.();
      const res = await fetch(new URL(path, options.baseUrl), {
        method,
        headers: {
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let answer: unknown = text || undefined;
      try {
        answer = text ? JSON.parse(text) : undefined;
      } catch {
        // Not JSON (a proxy's error page): kept as text.
      }
      if (!res.ok) {
        const error = (answer as Partial<ApiError> | undefined)?.error;
        throw new ApiCallError(
          res.status,
          error?.code ?? `HTTP_${res.status}`,
          `${method} ${path}: ${res.status} ${error?.message ?? res.statusText}`,
          answer,
        );
      }
      return answer;
    },
  };
}
