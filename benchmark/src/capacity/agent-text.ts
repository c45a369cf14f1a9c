// What simulated users write: a few ordinary words, sometimes an @mention,
// and the send time (the machine's clock, shared by every process) at the end
// so any receiver can time the delivery.
import { now } from '../swarm/protocol.ts';
import type { Range } from './config.ts';

const WORDS = (
  'the a to and of is in it you that for on we this with be are have can just not do at so what about ' +
  'meeting release build deploy review ticket tomorrow today lunch coffee thanks sure agreed later maybe ' +
  'looks good ship it fixed broken test again docs link call please done next week friday update plan'
).split(' ');

export const randomInt = (min: number, max: number): number => min + Math.floor(Math.random() * (max - min + 1));
export const uniform = (r: Range): number => r.min + Math.random() * (r.max - r.min);
export const pickOne = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

const STAMP = /\s\[t:(\d+(?:\.\d+)?)\]$/;

/** A message: `words` words, an optional mention, and the send time. */
export function messageText(words: Range, mention?: string): string {
  const n = randomInt(words.min, words.max);
  const parts = Array.from({ length: n }, () => pickOne(WORDS));
  if (mention) parts.splice(randomInt(0, parts.length), 0, `@${mention}`);
  return `${parts.join(' ')} [t:${now().toFixed(3)}]`;
}

/** The send time a message carries (epoch ms), or undefined for text without one. */
export function sentAtOf(content: string): number | undefined {
  const match = STAMP.exec(content);
  return match ? Number(match[1]) : undefined;
}

/** A small text file's bytes (what a user attaches: notes, a log excerpt). */
export function fileBytes(size: number): Buffer {
  const line = Buffer.from(`${Array.from({ length: 12 }, () => pickOne(WORDS)).join(' ')}\n`);
  const out = Buffer.alloc(size);
  for (let at = 0; at < size; at += line.length) line.copy(out, at, 0, Math.min(line.length, size - at));
  return out;
}
