import { vi } from 'vitest';

/** One request the app made: method, path with query, and the JSON body sent. */
export interface SeenRequest {
  method: string;
  url: string;
  body: unknown;
}

/** What the fake server answers: a status and a JSON body (none for 204). */
export interface FakeAnswer {
  status?: number;
  body?: unknown;
}

/**
 * Stands in for the server behind `fetch` in component tests: `answer` picks
 * the reply for each request, and every request is recorded in order. Undo
 * with `vi.unstubAllGlobals()`.
 */
export function fakeServer(answer: (req: SeenRequest) => FakeAnswer | Promise<FakeAnswer>) {
  const requests: SeenRequest[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const req: SeenRequest = {
      method: init?.method ?? 'GET',
      url,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    requests.push(req);
    const { status = 200, body } = await answer(req);
    if (status === 204) return new Response(null, { status });
    return Response.json(body ?? {}, { status });
  });
  vi.stubGlobal('fetch', fetch);
  return requests;
}

/** The error body the API sends with a failing status. */
export const apiError = (status: number, code: string, message = code): FakeAnswer => ({
  status,
  body: { error: { code, message } },
});

/** A clipboard that records what was written (or refuses, like a denied permission); undo with the returned function. */
export function fakeClipboard(opts: { refuse?: boolean } = {}) {
  const written: string[] = [];
  const writeText = vi.fn(async (text: string) => {
    if (opts.refuse) throw new DOMException('denied', 'NotAllowedError');
    written.push(text);
  });
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  const restore = () => {
    delete (navigator as { clipboard?: unknown }).clipboard;
  };
  return { written, restore };
}
