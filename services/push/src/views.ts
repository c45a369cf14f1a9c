import type { Notification, NotificationSettings, PushSubscriptionInfo } from '@im/protocol';
import type { NotificationDoc, SettingsDoc, SubscriptionDoc } from './models.ts';

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
});

/** A user's settings; a user who never set any has the defaults. */
export const toSettings = (doc: SettingsDoc | null | undefined): NotificationSettings => ({
  muteAll: doc?.muteAll ?? false,
  mutedConverseIds: (doc?.mutedConverseIds ?? []).map((id) => id.toHexString()),
});

/** A subscription as its owner lists it; one stored before `createdAt` was recorded dates from its id. */
export const toSubscriptionInfo = (
  s: Pick<SubscriptionDoc, '_id' | 'endpoint' | 'createdAt'>,
): PushSubscriptionInfo => ({
  endpoint: s.endpoint,
  createdAt: (s.createdAt ?? s._id.getTimestamp()).toISOString(),
});
