import { buttonHtml, emailHtml, escapeHtml } from './layout.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const COPY = {
  'verify-email': {
    subject: 'Confirm your e-mail address',
    lead: 'Someone (hopefully you) gave this address to the account',
    action: 'Confirm this address',
    valid: 'The link works once, for 24 hours.',
    ignore: 'If it was not you, ignore this e-mail: the address stays unconfirmed.',
  },
  'password-reset': {
    subject: 'Reset your password',
    lead: 'A new password was asked for the account',
    action: 'Choose a new password',
    valid: 'The link works once, for one hour. Setting a new password signs the account out everywhere.',
    ignore: 'If it was not you, ignore this e-mail: the password stays as it is.',
  },
} as const;

/** An address-verification or password-reset e-mail: its link, as text and HTML. */
export function renderAccountMail(
  kind: keyof typeof COPY,
  options: { site: string; username: string; url: string },
): RenderedMail {
  const copy = COPY[kind];
  const text = [
    `${copy.lead} "${options.username}" on ${options.site}.`,
    '',
    `${copy.action}:`,
    options.url,
    '',
    copy.valid,
    copy.ignore,
    '',
  ].join('\n');
  const html = emailHtml({
    site: options.site,
    title: copy.subject,
    body: [
      `<p>${escapeHtml(copy.lead)} <strong>${escapeHtml(options.username)}</strong> on ${escapeHtml(options.site)}.</p>`,
      `<p style="margin:24px 0">${buttonHtml(options.url, copy.action)}</p>`,
      `<p style="font-size:13px;color:#52606d">${escapeHtml(copy.valid)} Or open this address: <br><a href="${escapeHtml(options.url)}" style="color:#3b5bdb;word-break:break-all">${escapeHtml(options.url)}</a></p>`,
    ].join('\n'),
    footer: escapeHtml(copy.ignore),
  });
  return { subject: copy.subject, text, html };
}
