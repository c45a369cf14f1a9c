import type { Readable } from 'node:stream';

/** Everything an async iterable yields (a reader's groups, people, messages...). */
export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** A stream's bytes, or undefined for no stream (a file the export does not hold). */
export async function bytes(stream: Readable | undefined): Promise<Buffer | undefined> {
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
