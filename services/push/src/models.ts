import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface SubscriptionDoc {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** First registered (absent on subscriptions from before it was recorded: they count as the oldest). */
  createdAt?: Date;
  /** When its deliveries started failing without a success since (absent while it works). */
  failingSince?: Date;
}

export interface DeviceDoc {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  platform: 'ios' | 'android';
  token: string;
  createdAt?: Date;
}

/** A mention or DM received while offline: the notifications inbox. */
export interface NotificationDoc {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  kind: 'mention' | 'dm' | 'reminder';
  converseId: Types.ObjectId;
  messageId: Types.ObjectId;
  seq: number;
  authorId: Types.ObjectId;
  preview: string;
  createdAt: Date;
}

export interface SettingsDoc {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  muteAll: boolean;
  mutedConverseIds: Types.ObjectId[];
}

const subscriptionSchema = new Schema<SubscriptionDoc>(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    endpoint: { type: String, required: true },
    p256dh: { type: String, required: true },
    auth: { type: String, required: true },
    createdAt: { type: Date },
    failingSince: { type: Date },
  },
  { versionKey: false },
);
subscriptionSchema.index({ endpoint: 1 }, { unique: true });
subscriptionSchema.index({ userId: 1 });

const deviceSchema = new Schema<DeviceDoc>(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    platform: { type: String, required: true, enum: ['ios', 'android'] },
    token: { type: String, required: true },
    createdAt: { type: Date },
  },
  { versionKey: false },
);
deviceSchema.index({ token: 1 }, { unique: true });
deviceSchema.index({ userId: 1 });

const notificationSchema = new Schema<NotificationDoc>(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    kind: { type: String, required: true, enum: ['mention', 'dm', 'reminder'] },
    converseId: { type: Schema.Types.ObjectId, required: true },
    messageId: { type: Schema.Types.ObjectId, required: true },
    seq: { type: Number, required: true },
    authorId: { type: Schema.Types.ObjectId, required: true },
    preview: { type: String, required: true },
    createdAt: { type: Date, required: true, default: () => new Date() },
  },
  { versionKey: false },
);
// The inbox, newest first; clearing a converse up to a seq.
notificationSchema.index({ userId: 1, _id: -1 });
notificationSchema.index({ userId: 1, converseId: 1, seq: 1 });
notificationSchema.index({ messageId: 1, userId: 1 }, { unique: true });

const settingsSchema = new Schema<SettingsDoc>(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    muteAll: { type: Boolean, default: false },
    mutedConverseIds: { type: [Schema.Types.ObjectId], default: [] },
  },
  { versionKey: false },
);
settingsSchema.index({ userId: 1 }, { unique: true });

export interface PushModels {
  subscriptions: Model<SubscriptionDoc>;
  devices: Model<DeviceDoc>;
  notifications: Model<NotificationDoc>;
  settings: Model<SettingsDoc>;
}

export function pushModels(connection: Connection): PushModels {
  const get = <T>(name: string, schema: Schema<T>) => modelOn(connection, name, schema);
  return {
    subscriptions: get('PushSubscription', subscriptionSchema),
    devices: get('PushDevice', deviceSchema),
    notifications: get('Notification', notificationSchema),
    settings: get('NotificationSettings', settingsSchema),
  };
}
