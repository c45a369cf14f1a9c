import { connect } from 'node:net';

/** A reply of the Redis protocol: a string, a number, null, or an array of them. */
export type RespValue = string | number | null | RespValue[];

/** Parses one reply at `at`; undefined while the bytes are not all there. */
function parse(text: string, at: number): { value: RespValue; next: number } | undefined {
  const eol = text.indexOf('\r\n', at);
  if (eol < 0) return undefined;
  const kind = text[at];
  const line = text.slice(at + 1, eol);
  if (kind === '+') return { value: line, next: eol + 2 };
  if (kind === '-') throw new Error(`redis answered ${line}`);
  if (kind === ':') return { value: Number(line), next: eol + 2 };
  if (kind === '$') {
    const length = Number(line);
    if (length < 0) return { value: null, next: eol + 2 };
    // Lengths count bytes; the servers' answers read here are ASCII.
    if (text.length < eol + 2 + length + 2) return undefined;
    return { value: text.slice(eol + 2, eol + 2 + length), next: eol + 2 + length + 2 };
  }
  if (kind === '*') {
    const count = Number(line);
    if (count < 0) return { value: null, next: eol + 2 };
    const items: RespValue[] = [];
    let next = eol + 2;
    for (let i = 0; i < count; i += 1) {
      const item = parse(text, next);
      if (!item) return undefined;
      items.push(item.value);
      next = item.next;
    }
    return { value: items, next };
  }
  throw new Error(`unexpected reply ${JSON.stringify(text.slice(at, at + 40))}`);
}

/**
 * Sends one command on a connection of its own and resolves with the reply:
 * enough for probing dev servers without a client library.
 */
export function redisCommand(port: number, args: string[], host = '127.0.0.1', timeoutMs = 2000): Promise<RespValue> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host });
    let received = '';
    const done = (err: Error | undefined, value?: RespValue) => {
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(value ?? null);
    };
    const timer = setTimeout(() => done(new Error(`no answer to ${args[0]}`)), timeoutMs);
    socket.once('connect', () => {
      socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      try {
        const reply = parse(received, 0);
        if (reply) done(undefined, reply.value);
      } catch (err) {
        done(err as Error);
      }
    });
    socket.once('error', (err) => done(err));
  });
}

/** A flat array of field, value, field, value... (SENTINEL MASTER) as an object. */
export function fieldsOf(reply: RespValue): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(reply)) return out;
  for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
  return out;
}
