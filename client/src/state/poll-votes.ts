import type { Message } from '@im/protocol';

/**
 * A poll's change as the converse hears it (`message:updated`) carries no
 * one's votes: the reader keeps their own from what they held.
 */
export function keepMyVotes(held: readonly Message[], incoming: Message): Message {
  if (!incoming.poll) return incoming;
  const mine = held.find((m) => m.id === incoming.id)?.poll?.myVotes;
  return mine ? { ...incoming, poll: { ...incoming.poll, myVotes: mine } } : incoming;
}

/** My choice after clicking option `index`: a single-choice poll moves to it, a multiple one toggles it. */
export function nextChoice(current: readonly number[], index: number, multiple: boolean): number[] {
  if (!multiple) return current.length === 1 && current[0] === index ? [] : [index];
  return current.includes(index) ? current.filter((i) => i !== index) : [...current, index].sort((a, b) => a - b);
}
