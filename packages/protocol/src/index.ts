/**
 * Types shared by the server and the web client: the public contract of
 * shared/API.md. Only types live here, so the client bundles nothing extra.
 */

export interface ApiError {
  error: { code: `IM_ERR_${string}`; message: string; details?: unknown };
}

export interface HealthResponse {
  status: 'ok';
}

export interface ReadyResponse {
  status: 'ready' | 'unavailable';
  /** Each dependency of the node: 'ok' or why it failed. */
  checks: Record<string, string>;
  /** Present when not ready: the names of the failed checks. */
  failed?: string[];
}
