/**
 * Integrations: bots, incoming and outgoing webhooks, slash commands
 * (shared/API.md, Additions, Integrations).
 */
import type { Id, Int, Message, PublicUser, Timestamp } from './index.ts';

/** A bot member of one group, as its admins list it (`GET /api/groups/:id/bots`). */
export interface Bot {
  id: Id;
  username: string;
  nickname: string;
  groupId: Id;
  createdBy: Id;
  createdAt: Timestamp;
  /** Set when the bot posts for a webhook or a command (made and removed with it; it has no token of its own). */
  managedBy?: { kind: 'incoming' | 'outgoing' | 'command'; id: Id };
}

/** `POST /api/groups/:id/bots` (201), and a new token for a bot: shown once. */
export interface BotWithToken {
  bot: PublicUser;
  /** `Authorization: Bearer <token>`: the HTTP and socket.io API, within the bot's group only. */
  token: string;
}

/** An incoming webhook: `POST` Slack-style `{text}` to its url to post into the panel. */
export interface IncomingWebhook {
  id: Id;
  groupId: Id;
  panelId: Id;
  name: string;
  /** The bot its messages come from. */
  botId: Id;
  createdBy: Id;
  createdAt: Timestamp;
  /** Its maker is no longer an admin of the group: it does nothing until an admin renews its secret. */
  suspended?: true;
}

/**
 * Creating an incoming webhook or renewing its secret: its URL, shown once.
 * A list never shows it; a hook whose URL was lost gets a new one by renewal.
 */
export interface IncomingWebhookWithUrl extends IncomingWebhook {
  /** `/hooks/:id/:secret`: whoever has it can post; a new secret replaces it. */
  url: string;
}

/** An outgoing webhook: new messages of the group (or one panel) are POSTed, signed, to its url. */
export interface OutgoingWebhook {
  id: Id;
  groupId: Id;
  /** Only this panel's messages; absent: every panel of the group. */
  panelId?: Id;
  name: string;
  url: string;
  /** Only messages starting with one of these words; empty: every message. */
  triggerWords: string[];
  /** The bot that posts the `text` of the receiver's answers. */
  botId: Id;
  createdBy: Id;
  createdAt: Timestamp;
  /** Its maker is no longer an admin of the group: it does nothing until an admin renews its secret. */
  suspended?: true;
  /**
   * Failing for 24 h in a row (WEBHOOK_DISABLE_AFTER_MS) turned it off: it
   * gets no new deliveries until an admin turns it on again (PATCH).
   */
  disabled: boolean;
  /** Since when every delivery has failed (absent: the last one that answered was 2xx). */
  failingSince?: Timestamp;
}

/** Creating an outgoing webhook or a command, or rotating its secret: the signing secret, shown once. */
export interface OutgoingWebhookWithSecret extends OutgoingWebhook {
  secret: string;
}

/** `dropped`: never sent, as more than WEBHOOK_MAX_WAITING newer ones were waiting, or the hook was disabled. */
export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed' | 'dropped';

/** One event sent (or being sent) to an outgoing webhook. */
export interface WebhookDelivery {
  /** Also `X-IM-Delivery` and the body's `deliveryId`: the same on every attempt. */
  id: Id;
  event: 'message.created';
  status: DeliveryStatus;
  attempts: Int;
  /** The last attempt's answer status (absent: no answer, e.g. a timeout). */
  responseStatus?: Int;
  lastError?: string;
  /** When the event happened. */
  at: Timestamp;
  /** When the next attempt is due (retrying only). */
  nextAttemptAt?: Timestamp;
}

/** A slash command of a group: `/trigger args` typed in any of its panels calls url. */
export interface SlashCommand {
  id: Id;
  groupId: Id;
  trigger: string;
  description?: string;
  /** Shown to admins only. */
  url?: string;
  botId: Id;
  createdBy: Id;
  createdAt: Timestamp;
  /** Its maker is no longer an admin of the group: it does nothing until an admin renews its secret. */
  suspended?: true;
}

export interface SlashCommandWithSecret extends SlashCommand {
  url: string;
  secret: string;
}

/**
 * A send that was a slash command (202): not stored. `answered`: the answer
 * came within the deadline and was posted or shown; `working`: it did not,
 * and may still come through the command's responseUrl.
 */
export interface CommandAccepted {
  command: string;
  status: 'answered' | 'working' | 'failed';
}

/** `message:ephemeral`: shown to one person only ("Only you can see this"), never stored. */
export interface EphemeralMessage {
  id: string;
  converseId: Id;
  authorId: Id;
  content: string;
  createdAt: Timestamp;
  /** The command it answers. */
  command?: string;
}

/** What an outgoing webhook receives (signed: `X-IM-Signature: sha256=<hex>` over the raw body). */
export interface WebhookEventBody {
  event: 'message.created';
  deliveryId: Id;
  /** Unix seconds of this attempt, also `X-IM-Timestamp`: receivers refuse old ones (replay window). */
  timestamp: Int;
  groupId: Id;
  converseId: Id;
  message: Message;
}

/** What a command's url receives (signed the same way). */
export interface CommandRequestBody {
  command: string;
  text: string;
  userId: Id;
  groupId: Id;
  converseId: Id;
  /** POST `{text, responseType?}` here within 30 minutes for a late (or further) answer. */
  responseUrl: string;
  timestamp: Int;
}

/** The answer of a command's url or a POST to its responseUrl. */
export interface CommandResponse {
  text: string;
  /** `in_channel`: posted by the command's bot; otherwise only the caller sees it. */
  responseType?: 'ephemeral' | 'in_channel';
}

/** `POST /hooks/:id/:secret` (200). */
export interface HookPosted {
  messageId: Id;
}

/** Slash commands the server answers itself, in every converse: a group cannot register these triggers. */
export const BUILT_IN_COMMAND_TRIGGERS = ['me', 'shrug'] as const;
