/**
 * One delivery as it waits in the delivery queue (the log entry has the same
 * id). It carries its body to its first attempt only: a retry (or a job
 * brought back at start) reads it from the log entry, so what waits behind a
 * failing receiver, in memory or in Redis, stays small whatever the messages.
 */
export interface WebhookJobData {
  deliveryId: string;
  hookId: string;
  groupId: string;
  /** Epoch ms of the event: retries stop an hour and more after it. */
  at: number;
  /** The event's JSON without its timestamp, which each attempt adds (and signs); first attempt only. */
  body?: string;
}

/** The raw body of one attempt: the timestamp first, then the event as stored. */
export const withTimestamp = (body: string, timestamp: number): string => `{"timestamp":${timestamp},${body.slice(1)}`;
