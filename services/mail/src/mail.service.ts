import { EVENTS, LinkTokens, type AppContext, type ServiceEvents, type ServiceFactory, defineActions } from '@im/sdk';
import { MailQueue } from './delivery/mail-queue.ts';
import { createSender } from './delivery/sender.ts';
import { smtpTransport } from './delivery/transport.ts';
import { digestSender } from './digest/digest-sender.ts';
import { DigestTimer } from './digest/digest-timer.ts';
import { missedMessages } from './digest/missed-messages.ts';
import type { MailDeps } from './deps.ts';
import { mailMetrics } from './metrics.ts';
import { mailModels } from './models.ts';
import { sendActions } from './send-actions.ts';

/** E-mails in flight at once per mail node (SMTP servers limit connections; the transport pools two). */
const MAIL_CONCURRENCY = 4;

/**
 * E-mail: account links (verification, password reset) and missed-message
 * digests, sent over SMTP (SMTP_URL) through the delivery queue, never
 * while a request waits. Without SMTP_URL it runs and sends nothing.
 */
export const createMailService: ServiceFactory = (app: AppContext) => {
  const models = mailModels(app.mongo!);
  const publicBase = app.config.publicUrl ?? `http://localhost:${app.config.port}`;
  let queue: MailQueue | undefined;
  let timer: DigestTimer | undefined;
  const deps: MailDeps = {
    app,
    models,
    links: new LinkTokens(app.config.secret),
    publicBase,
    site: new URL(publicBase).host,
    queue: () => queue,
    timer: () => timer,
  };
  const missed = missedMessages(deps);
  const transport =
    app.config.smtpUrl && app.config.mailFrom ? smtpTransport(app.config.smtpUrl, app.config.mailFrom) : undefined;

  return {
    name: 'mail',
    async started() {
      await Promise.all(Object.values(models).map((m) => m.createIndexes()));
      if (!transport) return;
      const q = new MailQueue(models, app.redis, this.broker.nodeID);
      const hooks = mailMetrics(app.metrics, {
        queueDepth: () => q.depth(),
        digestsPending: () => models.digests.estimatedDocumentCount(),
      });
      await q.start(
        createSender(transport, {
          ...hooks,
          settled: (job) => void q.settled(job).catch(() => undefined),
        }),
        MAIL_CONCURRENCY,
      );
      queue = q;
      timer = new DigestTimer(digestSender(deps, this.broker), (err) =>
        app.logger.warn({ err }, 'missed-message e-mails: a run failed'),
      );
      timer.start();
    },
    async stopped() {
      await timer?.stop();
      await queue?.stop();
      transport?.close();
    },
    actions: defineActions('mail', { ...sendActions(deps) }),
    events: {
      [EVENTS.messageCreated]: { handler: missed.messageCreated },
      [EVENTS.messageUpdated]: { handler: missed.messageUpdated },
      [EVENTS.messageDeleted]: { handler: missed.messageDeleted },
      [EVENTS.converseRead]: { handler: missed.converseRead },
    } satisfies ServiceEvents,
  };
};
