import { t } from '../i18n/i18n.ts';
import type { MessageKey } from '../i18n/locales/en/index.ts';
import { BUILT_IN_COMMAND_TRIGGERS, type SlashCommand } from '@im/protocol';
import { getState, setState } from './store.ts';
import { accountMap } from './account-state.ts';
import { api } from '../api/api.ts';

// A group's slash commands, cached per group for the composer's suggestions
// and to tell a command send from a message. The settings tab keeps the cache
// current when an admin here changes them; another admin's change shows after
// a reconnect or once the cache is stale.

/** What the composer offers after `/`. */
export interface CommandSuggestion {
  trigger: string;
  description?: string;
  /** Answered by the server itself, in every converse. */
  builtIn?: boolean;
}

const BUILT_IN_DESCRIPTIONS: Record<(typeof BUILT_IN_COMMAND_TRIGGERS)[number], MessageKey> = {
  me: 'composer.command.me',
  shrug: 'composer.command.shrug',
};

/** The commands the server answers itself, described in the current language. */
export const builtInCommands = (): CommandSuggestion[] =>
  BUILT_IN_COMMAND_TRIGGERS.map((trigger) => ({
    trigger,
    description: t(BUILT_IN_DESCRIPTIONS[trigger]),
    builtIn: true,
  }));

/**
 * The action a `/me` send will be stored as (the server's rule: `/me` and some
 * text), so its pending copy already reads as the action it becomes.
 */
export function emoteOf(content: string): string | undefined {
  const match = /^\/me\s+(\S[\s\S]*)$/i.exec(content.trim());
  return match?.[1]?.trim();
}

/** How long a loaded list is trusted before opening one of the group's converses loads it again. */
export const COMMANDS_FRESH_MS = 5 * 60_000;

const loadedAt = accountMap<string, number>('slash commands loaded at');
const loading = accountMap<string, Promise<void>>('slash commands loading');

/**
 * Loads a group's commands unless a fresh list is held. A failure keeps what
 * was held: suggestions are a convenience, and a send still reaches the
 * server, which decides what is a command.
 */
export function loadCommands(groupId: string, opts: { force?: boolean } = {}): Promise<void> {
  const at = loadedAt.get(groupId);
  if (!opts.force && at !== undefined && Date.now() - at < COMMANDS_FRESH_MS) return Promise.resolve();
  const running = loading.get(groupId);
  if (running) return running;
  const load = api
    .call('integration.listCommands', { groupId })
    .then(
      (list) => setCommands(groupId, list),
      () => undefined,
    )
    .finally(() => loading.delete(groupId));
  loading.set(groupId, load);
  return load;
}

const byTrigger = (a: SlashCommand, b: SlashCommand) => a.trigger.localeCompare(b.trigger);

export function setCommands(groupId: string, list: readonly SlashCommand[]): void {
  loadedAt.set(groupId, Date.now());
  setState((s) => ({ commands: { ...s.commands, [groupId]: [...list].sort(byTrigger) } }));
}

/** A command made, or its secret renewed, in the settings. */
export function putCommand(groupId: string, command: SlashCommand): void {
  setState((s) => {
    const rest = (s.commands[groupId] ?? []).filter((c) => c.id !== command.id);
    return { commands: { ...s.commands, [groupId]: [...rest, command].sort(byTrigger) } };
  });
}

export function dropCommand(groupId: string, commandId: string): void {
  setState((s) => {
    const held = s.commands[groupId];
    if (!held) return {};
    return { commands: { ...s.commands, [groupId]: held.filter((c) => c.id !== commandId) } };
  });
}

/** The group's commands changed on the server: a list held is loaded again, one not held loads on next use. */
export function commandsChanged(groupId: string): void {
  if (getState().commands[groupId]) void loadCommands(groupId, { force: true });
  else loadedAt.delete(groupId);
}

/** After a reconnect: changes made meanwhile were not announced, so every list loads again on next use. */
export function forgetCommandAges(): void {
  loadedAt.clear();
}

/** The group's commands then the built-in ones, one entry per trigger (the server answers a built-in itself). */
export function commandSuggestions(commands: readonly SlashCommand[] | undefined): CommandSuggestion[] {
  const builtIn = new Set<string>(BUILT_IN_COMMAND_TRIGGERS);
  const own = (commands ?? [])
    .filter((c) => !builtIn.has(c.trigger))
    .map((c): CommandSuggestion => ({ trigger: c.trigger, description: c.description }));
  return [...own, ...builtInCommands()];
}

/** The trigger a text starts with: `/deploy now` → `deploy`; none for plain text. */
export function triggerOf(content: string): string | null {
  // As the server reads it: around spaces ignored, any case.
  return /^\/([a-z0-9_-]{1,32})(?=\s|$)/i.exec(content.trim())?.[1]?.toLowerCase() ?? null;
}

/** The group command a send would run, if its text starts with one. */
export function commandFor(content: string, commands: readonly SlashCommand[] | undefined): SlashCommand | undefined {
  const trigger = triggerOf(content);
  return trigger === null ? undefined : commands?.find((c) => c.trigger === trigger);
}
