import type {
  Bot,
  BotWithToken,
  IncomingWebhook,
  IncomingWebhookWithUrl,
  OutgoingWebhook,
  OutgoingWebhookWithSecret,
  SlashCommand,
  SlashCommandWithSecret,
  WebhookDelivery,
} from '@im/protocol';
import { api } from '../api/api.ts';
import { dropCommand, putCommand, setCommands } from './commands.ts';

// A group's integrations, for its admins: bots, incoming and outgoing
// webhooks, slash commands. The calls throw: the settings tab shows each
// failure next to what was clicked. Tokens and secrets come back only from
// the calls that make them, once.

export const listBots = (groupId: string): Promise<Bot[]> => api.call('integration.listBots', { groupId });

export const createBot = (groupId: string, name: string): Promise<BotWithToken> =>
  api.call('integration.createBot', { groupId, name });

/** A new token for a bot; the old one stops working. */
export const renewBotToken = (groupId: string, botId: string): Promise<BotWithToken> =>
  api.call('integration.botToken', { groupId, botId });

export const deleteBot = (groupId: string, botId: string): Promise<void> =>
  api.call('integration.removeBot', { groupId, botId });

export const listIncomingHooks = (groupId: string): Promise<IncomingWebhook[]> =>
  api.call('integration.listIncoming', { groupId });

/** The answer carries the hook's address, the only time it is shown (the list has none). */
export const createIncomingHook = (groupId: string, body: { panelId: string; name: string }) =>
  api.call('integration.createIncoming', { groupId, ...body });

/** A new address for an incoming hook, shown once; the old one stops working. */
export const renewIncomingSecret = (groupId: string, hookId: string): Promise<IncomingWebhookWithUrl> =>
  api.call('integration.rotateIncoming', { groupId, hookId });

export const deleteIncomingHook = (groupId: string, hookId: string): Promise<void> =>
  api.call('integration.removeIncoming', { groupId, hookId });

/** An outgoing webhook as the form sends it: absent panel means every panel, no words means every message. */
export interface OutgoingHookBody {
  url: string;
  name?: string;
  panelId?: string;
  triggerWords?: string[];
}

export const listOutgoingHooks = (groupId: string): Promise<OutgoingWebhook[]> =>
  api.call('integration.listOutgoing', { groupId });

export const createOutgoingHook = (groupId: string, body: OutgoingHookBody): Promise<OutgoingWebhookWithSecret> =>
  api.call('integration.createOutgoing', { groupId, ...body });

export const renewOutgoingSecret = (groupId: string, hookId: string): Promise<OutgoingWebhookWithSecret> =>
  api.call('integration.rotateOutgoing', { groupId, hookId });

export const deleteOutgoingHook = (groupId: string, hookId: string): Promise<void> =>
  api.call('integration.removeOutgoing', { groupId, hookId });

/** The hook's recent deliveries, newest first. */
export const listDeliveries = (groupId: string, hookId: string): Promise<WebhookDelivery[]> =>
  api.call('integration.deliveries', { groupId, hookId });

// Commands also update the composer's cache, so a new one is offered at once.

export async function listCommands(groupId: string): Promise<SlashCommand[]> {
  const list = await api.call('integration.listCommands', { groupId });
  setCommands(groupId, list);
  return list;
}

export async function createCommand(
  groupId: string,
  body: { trigger: string; url: string; description?: string },
): Promise<SlashCommandWithSecret> {
  const command = await api.call('integration.createCommand', { groupId, ...body });
  putCommand(groupId, withoutSecret(command));
  return command;
}

export const renewCommandSecret = (groupId: string, commandId: string): Promise<SlashCommandWithSecret> =>
  api.call('integration.rotateCommand', { groupId, commandId });

export async function deleteCommand(groupId: string, commandId: string): Promise<void> {
  await api.call('integration.removeCommand', { groupId, commandId });
  dropCommand(groupId, commandId);
}

/** What is kept of a command or outgoing webhook once made: never its secret. */
export function withoutSecret<T extends { secret: string }>(made: T): Omit<T, 'secret'> {
  const { secret: _secret, ...rest } = made;
  return rest;
}
