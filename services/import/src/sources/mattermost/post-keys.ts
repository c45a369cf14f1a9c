import { createHash } from 'node:crypto';

/**
 * Posts carry no id in a bulk export. A post's key is its channel, time
 * and author, and its position among the posts that share all three (rare:
 * two posts by one person in one channel in the same millisecond), so the
 * same post has the same key in a later export of the same server, where
 * a line number would not.
 */
export const postKey = (channelKey: string, createAt: number, user: string, position: number): string =>
  `${channelKey}|${createAt}|${user}|${position}`;

/** A reply's key: its root's, then its own time, author and position among its root's replies sharing both. */
export const replyKey = (rootKey: string, createAt: number, user: string, position: number): string =>
  `${rootKey}>${createAt}|${user}|${position}`;

/**
 * How many posts with a channel, time and author have been seen so far.
 * Remembers a 48-bit digest per combination rather than the text, so a
 * pass over millions of posts holds a few tens of bytes per post. Two
 * combinations sharing a digest only shift one's position up: keys stay
 * unique (each combination's positions still only grow) and the same file
 * always gives the same keys.
 */
export class PostPositions {
  readonly #seen = new Map<number, number>();

  next(...parts: (string | number)[]): number {
    const digest = createHash('sha1').update(parts.join('\u0000')).digest().readUIntBE(0, 6);
    const position = this.#seen.get(digest) ?? 0;
    this.#seen.set(digest, position + 1);
    return position;
  }
}
