/** One delivery as it waits in the delivery queue (the log entry has the same id). */
export interface WebhookJobData {
  deliveryId: string;
  hookId: string;
  groupId: string;
  /** Epoch ms of the event: retries stop an hour and more after it. */
  at: number;
  /** The event's JSON without its timestamp, which each attempt adds (and signs). */
  body: string;
}

/** The raw body of one attempt: the timestamp first, then the event as stored. */
export const withTimestamp = (body: string, timestamp: number): string => `{"timestamp":${timestamp},${body.slice(1)}`;
