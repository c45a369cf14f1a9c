import { t } from '../i18n/i18n.ts';
import type { CommandAccepted, Message } from '@im/protocol';
import { setState } from './store.ts';

/**
 * A slash command I sent, while it runs or when it failed. The server stores
 * nothing for a command, so this stands in for the pending message a send
 * would show.
 */
export interface CommandNote {
  /** The send's clientMsgId. */
  id: string;
  converseId: string;
  command: string;
  /** sending: waiting for the server; working: accepted, the answer comes later; failed: said why in `error`. */
  status: 'sending' | 'working' | 'failed';
  error?: string;
  /** The command's bot, when known: a message from it answers a `working` note. */
  botId?: string;
}

/** The note of a command whose service failed. */
export const commandFailedText = (): string => t('composer.commandServiceFailed');

/** A command's name without its slash, however the server spelled it. */
export const bareCommand = (command: string): string => command.replace(/^\//, '');

/** A send's answer that is not a message: the text ran a command. */
export function isCommandAccepted(data: Message | CommandAccepted): data is CommandAccepted {
  return !('seq' in data) && typeof data.command === 'string' && typeof data.status === 'string';
}

function patchNotes(converseId: string, update: (notes: CommandNote[]) => CommandNote[]): void {
  setState((s) => {
    const held = s.commandNotes[converseId] ?? [];
    const next = update(held);
    return next === held ? {} : { commandNotes: { ...s.commandNotes, [converseId]: next } };
  });
}

export function startCommandNote(note: Omit<CommandNote, 'status'>): void {
  patchNotes(note.converseId, (notes) => [...notes.filter((n) => n.id !== note.id), { ...note, status: 'sending' }]);
}

/**
 * The server's word on a command send: answered ends the note, working and
 * failed keep it. A send that was not known to be a command (the list was not
 * loaded) gets its note now.
 */
export function commandAccepted(converseId: string, id: string, accepted: CommandAccepted): void {
  patchNotes(converseId, (notes) => {
    const rest = notes.filter((n) => n.id !== id);
    if (accepted.status === 'answered') return rest.length === notes.length ? notes : rest;
    const held = notes.find((n) => n.id === id);
    const note: CommandNote = {
      ...held,
      id,
      converseId,
      command: held?.command ?? bareCommand(accepted.command),
      status: accepted.status,
      ...(accepted.status === 'failed' ? { error: commandFailedText() } : {}),
    };
    return [...rest, note];
  });
}

/** The send itself failed (refused, or no connection): the note says why. */
export function commandSendFailed(converseId: string, id: string, error: string): void {
  patchNotes(converseId, (notes) => notes.map((n) => (n.id === id ? { ...n, status: 'failed', error } : n)));
}

/** Removes a note: dismissed, or the server took the text as a plain message after all. */
export function dropCommandNote(converseId: string, id: string): void {
  patchNotes(converseId, (notes) => {
    const rest = notes.filter((n) => n.id !== id);
    return rest.length === notes.length ? notes : rest;
  });
}

/** An answer arrived (an ephemeral one for `command`, or a message by `botId`): its `working` notes end. */
export function commandAnswered(converseId: string, answer: { command?: string; botId?: string }): void {
  patchNotes(converseId, (notes) => {
    const rest = notes.filter(
      (n) =>
        n.status !== 'working' ||
        !(
          (answer.command !== undefined && n.command === bareCommand(answer.command)) ||
          (answer.botId !== undefined && n.botId === answer.botId)
        ),
    );
    return rest.length === notes.length ? notes : rest;
  });
}
