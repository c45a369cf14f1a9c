import type {
  IncomingWebhook,
  IncomingWebhookWithUrl,
  OutgoingWebhook,
  SlashCommand,
  WebhookDelivery,
} from '@im/protocol';
import type { CommandDoc, DeliveryDoc, IncomingHookDoc, OutgoingHookDoc } from './models.ts';

/** Set only while suspended (its maker no longer may manage the group's integrations). */
const suspension = (doc: { suspendedAt?: Date }): { suspended?: true } => (doc.suspendedAt ? { suspended: true } : {});

export const toIncoming = (doc: IncomingHookDoc): IncomingWebhook => ({
  id: doc._id.toHexString(),
  groupId: doc.groupId.toHexString(),
  panelId: doc.panelId.toHexString(),
  name: doc.name,
  botId: doc.botId.toHexString(),
  createdBy: doc.createdBy.toHexString(),
  createdAt: doc.createdAt.toISOString(),
  ...suspension(doc),
});

/** Only to whoever just made the secret (create, renewal): a list never shows it. */
export const toIncomingWithUrl = (doc: IncomingHookDoc): IncomingWebhookWithUrl => ({
  ...toIncoming(doc),
  url: `/hooks/${doc._id.toHexString()}/${doc.secret}`,
});

export const toOutgoing = (doc: OutgoingHookDoc): OutgoingWebhook => ({
  id: doc._id.toHexString(),
  groupId: doc.groupId.toHexString(),
  ...(doc.panelId ? { panelId: doc.panelId.toHexString() } : {}),
  name: doc.name,
  url: doc.url,
  triggerWords: doc.triggerWords,
  botId: doc.botId.toHexString(),
  createdBy: doc.createdBy.toHexString(),
  createdAt: doc.createdAt.toISOString(),
  ...suspension(doc),
  disabled: doc.disabled === true,
  ...(doc.failingSince ? { failingSince: doc.failingSince.toISOString() } : {}),
});

/** `url` only for those who manage integrations: it may name an internal service. */
export const toCommand = (doc: CommandDoc, manager: boolean): SlashCommand => ({
  id: doc._id.toHexString(),
  groupId: doc.groupId.toHexString(),
  trigger: doc.trigger,
  ...(doc.description ? { description: doc.description } : {}),
  ...(manager ? { url: doc.url } : {}),
  botId: doc.botId.toHexString(),
  createdBy: doc.createdBy.toHexString(),
  createdAt: doc.createdAt.toISOString(),
  ...suspension(doc),
});

export const toDelivery = (doc: DeliveryDoc): WebhookDelivery => ({
  id: doc._id.toHexString(),
  event: doc.event,
  status: doc.status,
  attempts: doc.attempts,
  ...(doc.responseStatus !== undefined ? { responseStatus: doc.responseStatus } : {}),
  ...(doc.lastError ? { lastError: doc.lastError } : {}),
  at: doc.at.toISOString(),
  ...(doc.status === 'retrying' && doc.nextAttemptAt ? { nextAttemptAt: doc.nextAttemptAt.toISOString() } : {}),
});
