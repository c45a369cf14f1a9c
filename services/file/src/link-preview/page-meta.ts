import { Parser } from 'htmlparser2';

/** What a page says about itself: OpenGraph first, then Twitter card, then plain HTML. */
export interface PageMeta {
  title?: string;
  description?: string;
  siteName?: string;
  /** As the page wrote it (may be relative to the page). */
  image?: string;
}

/** Longest text kept of each field (code units): a card is a summary. */
const LIMITS = { title: 300, description: 1000, siteName: 200 } as const;

const tidy = (text: string | undefined, max: number) => {
  const flat = text?.replace(/\s+/g, ' ').trim();
  if (!flat) return undefined;
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/**
 * Reads a page's `<meta>` tags and `<title>` with a real HTML parser (no
 * regular expressions over markup). Only the head matters; the parse stops
 * caring at `<body>`, which also bounds the work on a large page.
 */
export function readPageMeta(html: string): PageMeta {
  const tags = new Map<string, string>();
  let title = '';
  let inTitle = false;
  let done = false;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (done) return;
        // What a card needs is in <head>: the rest of the page (up to 1 MB) is not read.
        if (name === 'body') {
          done = true;
          parser.pause();
        } else if (name === 'title') inTitle = true;
        else if (name === 'meta') {
          const key = (attribs.property ?? attribs.name ?? '').toLowerCase();
          const content = attribs.content;
          // The first of a repeated tag wins (og:image may come several times).
          if (key && content !== undefined && !tags.has(key)) tags.set(key, content);
        }
      },
      ontext(text) {
        if (inTitle && !done) title += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  if (!done) parser.end();
  const pick = (...keys: string[]) => keys.map((k) => tags.get(k)).find((v) => v && v.trim());
  return {
    title: tidy(pick('og:title', 'twitter:title') ?? title, LIMITS.title),
    description: tidy(pick('og:description', 'twitter:description', 'description'), LIMITS.description),
    siteName: tidy(pick('og:site_name', 'application-name'), LIMITS.siteName),
    image: pick('og:image:secure_url', 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src')?.trim(),
  };
}
