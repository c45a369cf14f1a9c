import type { Outcome } from '@im/sdk';
import type { Transporter } from 'nodemailer';
import type { MailJob } from './mail-job.ts';

/** Attempts before an e-mail is given up (the last waits about 15 minutes: some 40 minutes in all). */
const MAX_ATTEMPTS = 10;
const backoff = (attempts: number) => Math.min(15 * 60_000, 2_000 * 2 ** attempts) * (0.75 + Math.random() * 0.5);

export interface SendHooks {
  sent(kind: string): void;
  failed(kind: string, reason: string): void;
  retried(kind: string): void;
  /** The job is over (sent or given up): its outbox entry can go. */
  settled(job: MailJob): void;
}

/**
 * What an SMTP failure means for the e-mail: a 5xx answer about this
 * message (its address is refused, say) never improves; a connection
 * failure, a 4xx answer or refused credentials (which an operator fixes) may.
 */
function permanent(err: unknown): boolean {
  const { code, responseCode } = err as { code?: string; responseCode?: number };
  if (code === 'EAUTH' || code === 'ECONNECTION' || code === 'ETIMEDOUT' || code === 'ESOCKET') return false;
  return code === 'EENVELOPE' || (typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600);
}

/** Sends one queued e-mail over SMTP and says what to do next. */
export function createSender(transport: Pick<Transporter, 'sendMail'>, hooks: SendHooks) {
  return async (job: MailJob): Promise<Outcome> => {
    const { kind, to, subject, text, html, headers } = job.data;
    try {
      await transport.sendMail({ to, subject, text, html, ...(headers ? { headers } : {}) });
    } catch (err) {
      if (permanent(err) || job.attempts + 1 >= MAX_ATTEMPTS) {
        hooks.failed(kind, permanent(err) ? 'refused' : 'gave-up');
        hooks.settled(job);
        return { done: true };
      }
      hooks.retried(kind);
      return { retryInMs: backoff(job.attempts), countAttempt: true };
    }
    hooks.sent(kind);
    hooks.settled(job);
    return { done: true };
  };
}
