import type { AppContext, LinkTokens } from '@im/sdk';
import type { DigestTimer } from './digest/digest-timer.ts';
import type { MailQueue } from './delivery/mail-queue.ts';
import type { MailModels } from './models.ts';

/** What the mail service's actions and event handlers share. */
export interface MailDeps {
  app: AppContext;
  models: MailModels;
  links: LinkTokens;
  /** Where people reach the web app (PUBLIC_URL): every link in an e-mail starts with it. */
  publicBase: string;
  /** The server's name in e-mails: PUBLIC_URL's host. */
  site: string;
  /** The queue, once the service started with e-mail on (SMTP_URL); undefined otherwise. */
  queue: () => MailQueue | undefined;
  /** The timer of missed-message e-mails, once started with e-mail on. */
  timer: () => DigestTimer | undefined;
}
