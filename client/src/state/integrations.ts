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
import { http, path } from '../api/http.ts';
import { dropCommand, putCommand, setCommands } from './commands.ts';

// A group's integrations, for its admins: bots, incoming and outgoing
// webhooks, slash commands. The calls throw: the settings tab shows each
// failure next to what was clicked. Tokens and secrets come back only from
// the calls that make them, once.

const base = (groupId: string) => path`/api/groups/${groupId}`;

export const listBots = (groupId: string): Promise<Bot[]> => http.get<Bot[]>(`${base(groupId)}/bots`);

export const createBot = (groupId: string, name: string): Promise<BotWithToken> =>
  http.post<BotWithToken>(`${base(groupId)}/bots`, { name });

/** A new token for a bot; the old one stops working. */
export const renewBotToken = (groupId: string, botId: string): Promise<BotWithToken> =>
  http.post<BotWithToken>(`${base(groupId)}${path`/bots/${botId}/token`}`);

export const deleteBot = (groupId: string, botId: string): Promise<void> =>
  http.delete(`${base(groupId)}${path`/bots/${botId}`}`);

export const listIncomingHooks = (groupId: string): Promise<IncomingWebhook[]> =>
  http.get<IncomingWebhook[]>(`${base(groupId)}/webhooks/incoming`);

/** The answer carries the hook's address, the only time it is shown (the list has none). */
export const createIncomingHook = (groupId: string, body: { panelId: string; name: string }) =>
  http.post<IncomingWebhookWithUrl>(`${base(groupId)}/webhooks/incoming`, body);

/** A new address for an incoming hook, shown once; the old one stops working. */
export const renewIncomingSecret = (groupId: string, hookId: string): Promise<IncomingWebhookWithUrl> =>
  http.post<IncomingWebhookWithUrl>(`${base(groupId)}${path`/webhooks/incoming/${hookId}/secret`}`);

export const deleteIncomingHook = (groupId: string, hookId: string): Promise<void> =>
  http.delete(`${base(groupId)}${path`/webhooks/incoming/${hookId}`}`);

/** An outgoing webhook as the form sends it: absent panel means every panel, no words means every message. */
export interface OutgoingHookBody {
  url: string;
  name?: string;
  panelId?: string;
  triggerWords?: string[];
}

export const listOutgoingHooks = (groupId: string): Promise<OutgoingWebhook[]> =>
  http.get<OutgoingWebhook[]>(`${base(groupId)}/webhooks/outgoing`);

export const createOutgoingHook = (groupId: string, body: OutgoingHookBody): Promise<OutgoingWebhookWithSecret> =>
  http.post<OutgoingWebhookWithSecret>(`${base(groupId)}/webhooks/outgoing`, body);

export const renewOutgoingSecret = (groupId: string, hookId: string): Promise<OutgoingWebhookWithSecret> =>
  http.post<OutgoingWebhookWithSecret>(`${base(groupId)}${path`/webhooks/outgoing/${hookId}/secret`}`);

export const deleteOutgoingHook = (groupId: string, hookId: string): Promise<void> =>
  http.delete(`${base(groupId)}${path`/webhooks/outgoing/${hookId}`}`);

/** The hook's recent deliveries, newest first. */
export const listDeliveries = (groupId: string, hookId: string): Promise<WebhookDelivery[]> =>
  http.get<WebhookDelivery[]>(`${base(groupId)}${path`/webhooks/outgoing/${hookId}/deliveries`}`);

// Commands also update the composer's cache, so a new one is offered at once.

export async function listCommands(groupId: string): Promise<SlashCommand[]> {
  const list = await http.get<SlashCommand[]>(`${base(groupId)}/commands`);
  setCommands(groupId, list);
  return list;
}

export async function createCommand(
  groupId: string,
  body: { trigger: string; url: string; description?: string },
): Promise<SlashCommandWithSecret> {
  const command = await http.post<SlashCommandWithSecret>(`${base(groupId)}/commands`, body);
  putCommand(groupId, withoutSecret(command));
  return command;
}

export const renewCommandSecret = (groupId: string, commandId: string): Promise<SlashCommandWithSecret> =>
  http.post<SlashCommandWithSecret>(`${base(groupId)}${path`/commands/${commandId}/secret`}`);

export async function deleteCommand(groupId: string, commandId: string): Promise<void> {
  await http.delete(`${base(groupId)}${path`/commands/${commandId}`}`);
  dropCommand(groupId, commandId);
}

/** What is kept of a command or outgoing webhook once made: never its secret. */
export function withoutSecret<T extends { secret: string }>(made: T): Omit<T, 'secret'> {
  const { secret: _secret, ...rest } = made;
  return rest;
}
