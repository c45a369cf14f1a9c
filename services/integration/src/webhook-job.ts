/**
 * One delivery as it waits in the delivery queue (the log entry has the same
 * id). It carries no body: each attempt reads it from the log entry, so
 * what waits in memory or in Redis stays small whatever the messages are.
 */
export interface WebhookJobData {
  deliveryId: string;
  hookId: string;
  groupId: string;
  /** Epoch ms of the event: retries stop an hour and more after it. */
  at: number;
}

/** The raw body of one attempt: the timestamp first, then the event as stored. */
export const withTimestamp = (body: string, timestamp: number): string => `{"timestamp":${timestamp},${body.slice(1)}`;
