import { createHash } from 'node:crypto';
import { escapeMarkup as x } from './escape.ts';
import { authorName, feedUpdated, updatedAt, type FeedSource } from './feed-model.ts';
import { plainText, renderFeedMarkdown } from './markdown.ts';
import { LANGUAGE_TAGS, pageText, type PageText } from './page-text.ts';

const GENERATOR = 'im-platform';
const TITLE_CHARS = 80;

/**
 * A stable `urn:uuid:` for anything with an id: the same message has the
 * same Atom id and RSS guid whatever address the server is reached at.
 */
export function stableUuid(kind: string, id: string): string {
  const h = createHash('sha256').update(`${kind}:${id}`).digest('hex');
  // Version 8 (custom) with the RFC 9562 variant bits.
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const entryTitle = (content: string, text: PageText): string => plainText(content, TITLE_CHARS) || text('noText');

/** Atom 1.0 (RFC 4287): dates in RFC 3339, ids that never change, every string escaped. */
export function renderAtom(source: FeedSource): string {
  const text = pageText(source.language);
  const out: string[] = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${LANGUAGE_TAGS[source.language]}">`,
    `<id>${stableUuid('converse', source.converseId)}</id>`,
    `<title>${x(source.title)}</title>`,
    ...(source.description ? [`<subtitle>${x(source.description)}</subtitle>`] : []),
    `<updated>${feedUpdated(source).toISOString()}</updated>`,
    ...(source.selfUrl ? [`<link rel="self" type="application/atom+xml" href="${x(source.selfUrl)}"/>`] : []),
    `<link rel="alternate" type="text/html" href="${x(source.pageUrl)}"/>`,
    `<generator>${GENERATOR}</generator>`,
  ];
  // Newest first, as feed readers expect.
  for (const m of [...source.messages].reverse()) {
    out.push(
      '<entry>',
      `<id>${stableUuid('message', m.id)}</id>`,
      `<title>${x(entryTitle(m.content, text))}</title>`,
      `<updated>${new Date(updatedAt(m)).toISOString()}</updated>`,
      `<published>${new Date(m.createdAt).toISOString()}</published>`,
      `<author><name>${x(authorName(source.authors, m.authorId, text))}</name></author>`,
      `<link rel="alternate" type="text/html" href="${x(source.messageUrl(m))}"/>`,
      `<content type="html">${x(renderFeedMarkdown(m.content))}</content>`,
      '</entry>',
    );
  }
  out.push('</feed>', '');
  return out.join('\n');
}

/** RFC 822 date as RSS 2.0 wants it (four-digit year, GMT). */
const rfc822 = (iso: string | Date): string => new Date(iso).toUTCString();

/** RSS 2.0: channel title, link and description are required; each item has a guid that is not a link. */
export function renderRss(source: FeedSource): string {
  const text = pageText(source.language);
  const out: string[] = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    `<title>${x(source.title)}</title>`,
    `<link>${x(source.pageUrl)}</link>`,
    `<description>${x(source.description || source.title)}</description>`,
    `<language>${LANGUAGE_TAGS[source.language]}</language>`,
    ...(source.selfUrl ? [`<atom:link rel="self" type="application/rss+xml" href="${x(source.selfUrl)}"/>`] : []),
    `<lastBuildDate>${rfc822(feedUpdated(source))}</lastBuildDate>`,
    `<generator>${GENERATOR}</generator>`,
  ];
  for (const m of [...source.messages].reverse()) {
    out.push(
      '<item>',
      `<title>${x(entryTitle(m.content, text))}</title>`,
      `<link>${x(source.messageUrl(m))}</link>`,
      `<description>${x(renderFeedMarkdown(m.content))}</description>`,
      // RSS's own <author> must be an e-mail address, which is never published here.
      `<dc:creator>${x(authorName(source.authors, m.authorId, text))}</dc:creator>`,
      `<guid isPermaLink="false">${stableUuid('message', m.id)}</guid>`,
      `<pubDate>${rfc822(m.createdAt)}</pubDate>`,
      '</item>',
    );
  }
  out.push('</channel>', '</rss>', '');
  return out.join('\n');
}
