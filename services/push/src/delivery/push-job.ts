import type { DeliveryJob } from '@im/sdk';

export interface WebPushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
  failing?: true;
}

/** A notification for one device, as it waits in the delivery queue. */
export interface PushJobData {
  channel: 'webpush' | 'proxy';
  /** webpush: the subscription (`failing` when its deliveries were failing); proxy: the device. */
  target: WebPushTarget | { platform: string; token: string };
  /** JSON text of the notification. */
  payload: string;
}

export type PushJob = DeliveryJob<PushJobData>;
