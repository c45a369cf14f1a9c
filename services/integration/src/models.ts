import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/** A bot made through this service (by an admin, or for a hook or command): which group, for what. */
export interface BotDoc {
  _id: Types.ObjectId;
  groupId: Types.ObjectId;
  managedBy?: { kind: 'incoming' | 'outgoing' | 'command'; id: Types.ObjectId };
}

export interface IncomingHookDoc {
  _id: Types.ObjectId;
  groupId: Types.ObjectId;
  panelId: Types.ObjectId;
  converseId: Types.ObjectId;
  name: string;
  botId: Types.ObjectId;
  /** In the hook's URL, shown once (create, renewal); kept to check the URL a post comes to. */
  secret: string;
  createdBy: Types.ObjectId;
  /** Who last renewed the secret, the only one who knows it (absent: never renewed, its maker). */
  secretHolder?: Types.ObjectId;
  createdAt: Date;
  /** Its maker stopped being an admin of the group: it works again once an admin renews its secret. */
  suspendedAt?: Date;
}

export interface OutgoingHookDoc {
  _id: Types.ObjectId;
  groupId: Types.ObjectId;
  panelId?: Types.ObjectId;
  converseId?: Types.ObjectId;
  name: string;
  url: string;
  triggerWords: string[];
  /** Signs every delivery (HMAC-SHA256): kept as is, since signing needs it. */
  secret: string;
  botId: Types.ObjectId;
  createdBy: Types.ObjectId;
  /** Who last renewed the secret, the only one who knows it (absent: never renewed, its maker). */
  secretHolder?: Types.ObjectId;
  createdAt: Date;
  /** As an incoming hook's: nothing is delivered while it is set. */
  suspendedAt?: Date;
  /** Set at the first failure after a success (or since creation); unset by the next 2xx. */
  failingSince?: Date;
  /** Failing for WEBHOOK_DISABLE_AFTER_MS: no new deliveries until an admin turns it on again. */
  disabled?: boolean;
}

export interface CommandDoc {
  _id: Types.ObjectId;
  groupId: Types.ObjectId;
  trigger: string;
  url: string;
  description?: string;
  secret: string;
  botId: Types.ObjectId;
  createdBy: Types.ObjectId;
  /** Who last renewed the secret, the only one who knows it (absent: never renewed, its maker). */
  secretHolder?: Types.ObjectId;
  createdAt: Date;
  /** As an incoming hook's: the command is not called while it is set. */
  suspendedAt?: Date;
}

/** One event for one outgoing hook: its log entry, and its body for the attempts still to come. */
export interface DeliveryDoc {
  /** Derived from the message and the hook: every node that hears the event makes the same one. */
  _id: Types.ObjectId;
  hookId: Types.ObjectId;
  groupId: Types.ObjectId;
  event: 'message.created';
  status: 'pending' | 'retrying' | 'delivered' | 'failed' | 'dropped';
  attempts: number;
  responseStatus?: number;
  lastError?: string;
  at: Date;
  nextAttemptAt?: Date;
  /** JSON of the event without its timestamp (added, and signed, per attempt); removed once it cannot be sent. */
  body?: string;
}

/** A delivery that may still be sent. */
export const WAITING_STATUSES = ['pending', 'retrying'] as const;

const schema = <T>(definition: Record<string, unknown>) =>
  new Schema<T>(definition, { versionKey: false, minimize: false });

const id = { type: Schema.Types.ObjectId, required: true };

const botSchema = schema<BotDoc>({ groupId: id, managedBy: { type: Schema.Types.Mixed } });
botSchema.index({ groupId: 1 });

const incomingSchema = schema<IncomingHookDoc>({
  groupId: id,
  panelId: id,
  converseId: id,
  name: { type: String, required: true },
  botId: id,
  secret: { type: String, required: true },
  createdBy: id,
  secretHolder: { type: Schema.Types.ObjectId },
  createdAt: { type: Date, required: true },
  suspendedAt: { type: Date },
});
incomingSchema.index({ groupId: 1 });

const outgoingSchema = schema<OutgoingHookDoc>({
  groupId: id,
  panelId: { type: Schema.Types.ObjectId },
  converseId: { type: Schema.Types.ObjectId },
  name: { type: String, required: true },
  url: { type: String, required: true },
  triggerWords: { type: [String], default: [] },
  secret: { type: String, required: true },
  botId: id,
  createdBy: id,
  secretHolder: { type: Schema.Types.ObjectId },
  createdAt: { type: Date, required: true },
  suspendedAt: { type: Date },
  failingSince: { type: Date },
  disabled: { type: Boolean },
});
outgoingSchema.index({ groupId: 1 });

const commandSchema = schema<CommandDoc>({
  groupId: id,
  trigger: { type: String, required: true },
  url: { type: String, required: true },
  description: { type: String },
  secret: { type: String, required: true },
  botId: id,
  createdBy: id,
  secretHolder: { type: Schema.Types.ObjectId },
  createdAt: { type: Date, required: true },
  suspendedAt: { type: Date },
});
commandSchema.index({ groupId: 1, trigger: 1 }, { unique: true });

const deliverySchema = schema<DeliveryDoc>({
  hookId: id,
  groupId: id,
  event: { type: String, required: true },
  status: { type: String, required: true },
  attempts: { type: Number, required: true },
  responseStatus: { type: Number },
  lastError: { type: String },
  at: { type: Date, required: true },
  nextAttemptAt: { type: Date },
  body: { type: String },
});
deliverySchema.index({ hookId: 1, at: -1 });
deliverySchema.index({ status: 1 });
// A failing hook's waiting deliveries, oldest first: those past WEBHOOK_MAX_WAITING are dropped.
deliverySchema.index({ hookId: 1, status: 1, at: 1 });
// The log keeps a week; retries end long before.
deliverySchema.index({ at: 1 }, { expireAfterSeconds: 7 * 86400 });

export const integrationModels = (connection: Connection) => ({
  bots: modelOn(connection, 'IntegrationBot', botSchema) as Model<BotDoc>,
  incoming: modelOn(connection, 'IncomingHook', incomingSchema) as Model<IncomingHookDoc>,
  outgoing: modelOn(connection, 'OutgoingHook', outgoingSchema) as Model<OutgoingHookDoc>,
  commands: modelOn(connection, 'SlashCommand', commandSchema) as Model<CommandDoc>,
  deliveries: modelOn(connection, 'WebhookDelivery', deliverySchema) as Model<DeliveryDoc>,
});

export type IntegrationModels = ReturnType<typeof integrationModels>;
