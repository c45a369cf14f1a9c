import type { DeliveryJob } from '@im/sdk';

/** One e-mail as queued: everything needed to send it, rendered already. */
export interface MailJobData {
  /** What it is, for the metrics: an account link, or a missed-message digest. */
  kind: 'verify-email' | 'password-reset' | 'digest';
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  /** Its outbox entry, on a single instance (removed once the e-mail is sent or given up). */
  outboxId?: string;
}

export type MailJob = DeliveryJob<MailJobData>;
