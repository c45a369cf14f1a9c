import { Counter, Gauge, type Registry } from 'prom-client';
import type { SendHooks } from './delivery/sender.ts';

/** The mail service's metrics, and the delivery hooks that record them. */
export function mailMetrics(
  registry: Registry,
  gauges: { queueDepth: () => Promise<number>; digestsPending: () => Promise<number> },
): Omit<SendHooks, 'settled'> {
  const sent = new Counter({
    name: 'im_mail_sent_total',
    help: 'E-mails the SMTP server accepted',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const failed = new Counter({
    name: 'im_mail_failed_total',
    help: 'E-mails given up (refused by the SMTP server, or still failing after every attempt)',
    labelNames: ['kind', 'reason'] as const,
    registers: [registry],
  });
  const retried = new Counter({
    name: 'im_mail_retried_total',
    help: 'E-mail attempts that failed and will be tried again',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'im_mail_queue_depth',
    help: 'E-mails waiting to be sent (including retries)',
    registers: [registry],
    async collect() {
      this.set(await gauges.queueDepth());
    },
  });
  new Gauge({
    name: 'im_mail_digests_pending',
    help: 'Missed-message e-mails scheduled and not yet due',
    registers: [registry],
    async collect() {
      this.set(await gauges.digestsPending());
    },
  });
  return {
    sent: (kind) => sent.inc({ kind }),
    failed: (kind, reason) => failed.inc({ kind, reason }),
    retried: (kind) => retried.inc({ kind }),
  };
}
