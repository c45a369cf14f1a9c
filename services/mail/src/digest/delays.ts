import type { EmailNotifications } from '@im/protocol';
import type { AppConfig } from '@im/sdk';

const DELAY_MS: Record<Exclude<EmailNotifications, 'off'>, number> = {
  '10m': 10 * 60_000,
  '1h': 3600_000,
  daily: 86_400_000,
};

/** How long after the first missed message its e-mail goes (MAIL_DIGEST_DELAY_MS overrides every choice). */
export const digestDelayMs = (config: AppConfig, every: EmailNotifications): number =>
  config.mailDigestDelayMs ?? (every === 'off' ? DELAY_MS.daily : DELAY_MS[every]);
