import { ApiRequestError, networkError } from './errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** The session calls are made in: its token, and the signal that cancels its calls when it ends. */
interface HttpSession {
  token: string;
  ended: AbortController;
}

/**
 * What a call of an ended session answers: a promise that never settles, so
 * nothing awaiting it runs and no answer meant for the previous account
 * reaches the state of the next one.
 */
const dropped = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** Calls the JSON API with the session's bearer token. */
export class HttpClient {
  private session: HttpSession | null = null;
  private onUnauthorized: (() => void) | null = null;

  /**
   * Starts calling as `token`; another token (or none) ends the session of
   * the previous one: its calls still on their way are cancelled and dropped.
   */
  setToken(token: string | null): void {
    if (this.session?.token === token) return;
    this.session?.ended.abort();
    this.session = token ? { token, ended: new AbortController() } : null;
  }

  getToken(): string | null {
    return this.session?.token ?? null;
  }

  /** Aborts when the current session ends: for calls made outside this client (uploads). */
  sessionSignal(): AbortSignal | undefined {
    return this.session?.ended.signal;
  }

  /** Called once per 401 on an authenticated call: the session ended (expired token, deleted account). */
  setUnauthorizedHandler(handler: (() => void) | null): void {
    this.onUnauthorized = handler;
  }

  /** A JSON call; a `FormData` body goes as multipart (small uploads: an icon, an emoji). */
  async request<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
    const session = this.session;
    const headers: Record<string, string> = { Accept: 'application/json' };
    const form = body instanceof FormData;
    // The browser sets a multipart body's type, with its boundary.
    if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
    if (session) headers.Authorization = `Bearer ${session.token}`;
    // A call made signed out belongs to no account: only a session's calls end with it.
    const ended = () => session !== null && this.session !== session;
    let res: Response;
    try {
      res = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
        ...(session ? { signal: session.ended.signal } : {}),
      });
    } catch {
      if (ended()) return dropped<T>();
      throw networkError();
    }
    let answer: unknown;
    try {
      if (!res.ok) {
        const err = await ApiRequestError.fromResponse(res);
        if (ended()) return dropped<T>();
        // The 401 of this session's call ends this session, never one signed in since.
        if (res.status === 401 && session) this.onUnauthorized?.();
        throw err;
      }
      answer = res.status === 204 ? undefined : await res.json();
    } catch (err) {
      if (ended()) return dropped<T>();
      throw err;
    }
    return ended() ? dropped<T>() : (answer as T);
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body ?? {});
  }

  patch<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PATCH', path, body);
  }

  put<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('PUT', path, body);
  }

  delete<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('DELETE', path, body);
  }
}

export const http = new HttpClient();
