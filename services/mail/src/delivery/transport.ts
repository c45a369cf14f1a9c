import nodemailer, { type Transporter } from 'nodemailer';

/** Bounds on one SMTP conversation: a mail server that hangs holds a delivery slot this long at most. */
const CONNECT_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

/**
 * A pooled nodemailer transport for SMTP_URL: smtps:// speaks TLS from the
 * start (port 465 unless named), smtp:// upgrades with STARTTLS when the
 * server offers it (port 587 unless named); user and password from the URL.
 */
export function smtpTransport(smtpUrl: string, from: string): Transporter {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return nodemailer.createTransport(
    {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      ...(url.username
        ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
        : {}),
      pool: true,
      maxConnections: 2,
      connectionTimeout: CONNECT_TIMEOUT_MS,
      greetingTimeout: CONNECT_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
    },
    { from },
  );
}
