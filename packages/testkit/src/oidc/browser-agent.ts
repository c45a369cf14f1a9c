/** One stored cookie; like a browser, a cookie belongs to a host whatever the port. */
interface StoredCookie {
  host: string;
  name: string;
  value: string;
  path: string;
}

export interface AgentAnswer {
  status: number;
  /** The Location header made absolute, for redirects. */
  location?: string;
  body: string;
}

/**
 * What node tests use in place of a browser for redirect flows: it keeps
 * cookies (host and path, Max-Age=0 removes one) and does not follow
 * redirects by itself, so each hop can be looked at.
 */
export class BrowserAgent {
  readonly #cookies: StoredCookie[] = [];

  get(url: string): Promise<AgentAnswer> {
    return this.#send(url, { method: 'GET' });
  }

  /** An HTML form's POST (application/x-www-form-urlencoded). */
  postForm(url: string, fields: Record<string, string>): Promise<AgentAnswer> {
    return this.#send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** The value of a cookie this agent would send to `url`, if any. */
  cookie(url: string, name: string): string | undefined {
    return this.#matching(new URL(url)).find((c) => c.name === name)?.value;
  }

  async #send(url: string, init: { method: string; headers?: Record<string, string>; body?: string }) {
    const target = new URL(url);
    const cookies = this.#matching(target)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    const res = await fetch(target, {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, ...(cookies ? { cookie: cookies } : {}) },
    });
    for (const header of res.headers.getSetCookie()) this.#store(target, header);
    const location = res.headers.get('location');
    return {
      status: res.status,
      ...(location ? { location: new URL(location, target).href } : {}),
      body: await res.text(),
    };
  }

  #matching(url: URL): StoredCookie[] {
    return this.#cookies.filter(
      (c) =>
        c.host === url.hostname &&
        (url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`)),
    );
  }

  #store(from: URL, header: string): void {
    const [pair = '', ...attributes] = header.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const cookie: StoredCookie = {
      host: from.hostname,
      name: pair.slice(0, eq),
      value: pair.slice(eq + 1),
      path: from.pathname.slice(0, from.pathname.lastIndexOf('/')) || '/',
    };
    let expired = false;
    for (const attribute of attributes) {
      const [key = '', value = ''] = attribute.split('=');
      const name = key.toLowerCase();
      if (name === 'path') cookie.path = value || '/';
      if (name === 'max-age' && Number(value) <= 0) expired = true;
      if (name === 'expires' && Date.parse(value) <= Date.now()) expired = true;
    }
    const at = this.#cookies.findIndex(
      (c) => c.host === cookie.host && c.name === cookie.name && c.path === cookie.path,
    );
    if (at >= 0) this.#cookies.splice(at, 1);
    if (!expired) this.#cookies.push(cookie);
  }
}
