import type { DeliveryJob } from '@im/sdk';

/** A notification for one device, as it waits in the delivery queue. */
export interface PushJobData {
  channel: 'webpush' | 'proxy';
  /** webpush: the subscription; proxy: the device. */
  target: { endpoint: string; p256dh: string; auth: string } | { platform: string; token: string };
  /** JSON text of the notification. */
  payload: string;
}

export type PushJob = DeliveryJob<PushJobData>;
