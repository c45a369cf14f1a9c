import { connect } from 'node:net';

/** Connects, optionally writes `send`, and resolves with the first bytes the server answers. */
export function tcpExchange(port: number, send: string | null, host = '127.0.0.1', timeoutMs = 1000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer'));
    }, timeoutMs);
    socket.once('connect', () => {
      if (send !== null) socket.write(send);
    });
    socket.once('data', (data) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(data.toString('utf8'));
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** Retries `probe` until it resolves or `timeoutMs` passes; rejects with the last failure. */
export async function waitUntil(
  what: string,
  probe: () => Promise<unknown>,
  timeoutMs: number,
  /** Errors that no retry can cure: thrown at once. */
  fatal: (err: unknown) => boolean = () => false,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (let delay = 25; Date.now() < deadline; delay = Math.min(delay * 2, 250)) {
    try {
      await probe();
      return;
    } catch (err) {
      if (fatal(err)) throw err;
      last = err;
    }
    await new Promise((r) => setTimeout(r, delay));
  }
  throw new Error(`${what} not ready within ${timeoutMs} ms: ${last instanceof Error ? last.message : String(last)}`);
}
