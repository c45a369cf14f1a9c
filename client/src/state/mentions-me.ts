import type { Message } from '@im/protocol';

/**
 * Whether a message mentions me: by name, or as one of many (`@all`, and
 * `@here`, which the server flags only for members online at the send: a
 * message I receive live was sent while I was online). My own never do.
 */
export function mentionsMe(message: Message, meId: string): boolean {
  if (message.deleted || message.authorId === meId) return false;
  return message.mentions.includes(meId) || message.mentionsAll === true || message.mentionsHere === true;
}

/** The names `@all` / `@here` a message really uses as mentions (highlighted like `@name`). */
export function manyMentionNames(message: Message): string[] {
  return [...(message.mentionsAll ? ['all'] : []), ...(message.mentionsHere ? ['here'] : [])];
}
