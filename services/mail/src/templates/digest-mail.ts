import type { RenderedMail } from './account-mail.ts';
import { emailHtml, escapeHtml } from './layout.ts';
import { messageHtml, messageText } from './message-html.ts';

/** One converse of a digest: its title, a link that opens it, and the unread messages in it. */
export interface DigestSection {
  title: string;
  url: string;
  messages: Array<{ author: string; sentAt: Date; content: string; url: string }>;
}

export interface DigestInput {
  site: string;
  nickname: string;
  sections: DigestSection[];
  /** Opens the app's page that turns these e-mails off (the List-Unsubscribe header has the one-click URL). */
  unsubscribeUrl: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const timeOf = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Who wrote them, for the subject: one or two names, then how many more. */
function authorsLine(sections: DigestSection[]): string {
  const names = [...new Set(sections.flatMap((s) => s.messages.map((m) => m.author)))];
  if (names.length <= 2) return names.join(' and ');
  return `${names[0]}, ${names[1]} and ${plural(names.length - 2, 'other')}`;
}

/** The missed-message e-mail: the unread DMs and mentions grouped by converse, as text and HTML. */
export function renderDigest(input: DigestInput): RenderedMail {
  const total = input.sections.reduce((n, s) => n + s.messages.length, 0);
  const subject = `${plural(total, 'unread message')} from ${authorsLine(input.sections)}`;
  const footerText = `You get this e-mail because you were away when these messages came. Turn these e-mails off: ${input.unsubscribeUrl}`;

  const text = [
    `Hi ${input.nickname}, while you were away on ${input.site}:`,
    '',
    ...input.sections.flatMap((s) => [
      `== ${s.title} (${s.url})`,
      ...s.messages.map((m) => `${m.author}, ${timeOf(m.sentAt)}: ${messageText(m.content)}\n  ${m.url}`),
      '',
    ]),
    '-- ',
    footerText,
    '',
  ].join('\n');

  const sectionHtml = (s: DigestSection) =>
    [
      `<h2 style="font-size:16px;margin:24px 0 8px"><a href="${escapeHtml(s.url)}" style="color:#1f2933;text-decoration:none">${escapeHtml(s.title)}</a></h2>`,
      ...s.messages.map(
        (m) =>
          `<div style="border-left:3px solid #d9e2ec;padding:4px 0 4px 12px;margin:8px 0">` +
          `<div style="font-size:13px;color:#52606d"><strong style="color:#1f2933">${escapeHtml(m.author)}</strong> · ` +
          `<a href="${escapeHtml(m.url)}" style="color:#52606d">${escapeHtml(timeOf(m.sentAt))}</a></div>` +
          `<div>${messageHtml(m.content)}</div></div>`,
      ),
      `<p style="margin:8px 0 0"><a href="${escapeHtml(s.url)}" style="color:#3b5bdb">Open the conversation</a></p>`,
    ].join('\n');

  const html = emailHtml({
    site: input.site,
    title: subject,
    body: [`<p>Hi ${escapeHtml(input.nickname)}, while you were away:</p>`, ...input.sections.map(sectionHtml)].join(
      '\n',
    ),
    footer:
      `You get this e-mail because you were away when these messages came. ` +
      `<a href="${escapeHtml(input.unsubscribeUrl)}" style="color:#7b8794">Turn these e-mails off</a>.`,
  });
  return { subject, text, html };
}
