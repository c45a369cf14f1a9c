import type { EphemeralMessage } from '@im/protocol';
import { commandAnswered } from './command-sends.ts';
import { setState } from './store.ts';
import { ensureUsers } from './users.ts';

/** The most kept per converse: they are answers to my own commands, and the oldest matter least. */
export const MAX_EPHEMERAL_PER_CONVERSE = 50;

/**
 * A `message:ephemeral`: an answer only I see, held for this page's life
 * (the server keeps no copy). It also ends a "still working" note of its command.
 */
export function receiveEphemeral(message: EphemeralMessage): void {
  setState((s) => {
    const held = s.ephemeral[message.converseId] ?? [];
    if (held.some((m) => m.id === message.id)) return {};
    const next = [...held, message].slice(-MAX_EPHEMERAL_PER_CONVERSE);
    return { ephemeral: { ...s.ephemeral, [message.converseId]: next } };
  });
  ensureUsers([message.authorId]);
  commandAnswered(message.converseId, { command: message.command, botId: message.authorId });
}

export function dismissEphemeral(converseId: string, id: string): void {
  setState((s) => {
    const held = s.ephemeral[converseId];
    if (!held?.some((m) => m.id === id)) return {};
    return { ephemeral: { ...s.ephemeral, [converseId]: held.filter((m) => m.id !== id) } };
  });
}
