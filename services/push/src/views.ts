import type { Notification, NotificationSettings, PushSubscriptionInfo } from '@im/protocol';
import { toSetting } from './converse-levels.ts';
import type { ConverseLevelDoc, NotificationDoc, SettingsDoc, SubscriptionDoc } from './models.ts';

export const toNotification = (n: NotificationDoc): Notification => ({
  id: n._id.toHexString(),
  type: n.kind,
  kind: n.kind,
  converseId: n.converseId.toHexString(),
  messageId: n.messageId.toHexString(),
  seq: n.seq,
  authorId: n.authorId.toHexString(),
  preview: n.preview,
  createdAt: n.createdAt.toISOString(),
  read: n.readAt !== undefined && n.readAt !== null,
});

/** A user's settings with every converse level they set; a user who never set any has the defaults. */
export const toSettings = (doc: SettingsDoc | null | undefined, levels: ConverseLevelDoc[]): NotificationSettings => ({
  muteAll: doc?.muteAll ?? false,
  mutedConverseIds: levels.filter((l) => l.level === 'none').map((l) => l.converseId.toHexString()),
  converses: Object.fromEntries(levels.map((l) => [l.converseId.toHexString(), toSetting(l)])),
});

/** A subscription as its owner lists it; one stored before `createdAt` was recorded dates from its id. */
export const toSubscriptionInfo = (
  s: Pick<SubscriptionDoc, '_id' | 'endpoint' | 'createdAt'>,
): PushSubscriptionInfo => ({
  endpoint: s.endpoint,
  createdAt: (s.createdAt ?? s._id.getTimestamp()).toISOString(),
});
