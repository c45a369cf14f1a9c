import { Agent } from 'undici';

/**
 * The one HTTP client of the process for push endpoints: keep-alive
 * connections pooled per origin, so thousands of notifications reuse a
 * handful of sockets instead of opening one each.
 */
export const pushAgent = new Agent({
  connections: 16,
  keepAliveTimeout: 30_000,
  keepAliveMaxTimeout: 120_000,
  headersTimeout: 10_000,
  bodyTimeout: 10_000,
});

/**
 * POSTs over the pool and resolves with the answer's status once the answer
 * is over (its body, which push services leave empty or nearly, is dropped);
 * rejects on a network error or timeout. undici's request() would wrap every
 * answer in a stream only for it to be drained.
 */
export function post(url: URL, headers: Record<string, string>, body: Buffer | string): Promise<number> {
  return new Promise((resolve, reject) => {
    let status = 0;
    pushAgent.dispatch(
      { origin: url.origin, path: url.pathname + url.search, method: 'POST', headers, body },
      {
        // Required at run time (undici tells its handler API from the legacy one by it), though typed optional.
        onRequestStart() {},
        onResponseStart(_controller, statusCode) {
          status = statusCode;
        },
        onResponseData() {},
        onResponseEnd() {
          resolve(status);
        },
        onResponseError(_controller, err) {
          reject(err);
        },
      },
    );
  });
}
