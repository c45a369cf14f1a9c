import { escapeMarkup as x } from './escape.ts';
import { authorName, type FeedSource } from './feed-model.ts';
import { plainText, renderMarkdown } from './markdown.ts';
import { LANGUAGE_TAGS, pageText } from './page-text.ts';

/** What a web-public panel's page adds to its feed source. */
export interface PageSource extends FeedSource {
  /** This page's own address (with `?before=` when it is an older page). */
  canonicalUrl: string;
  atomUrl: string;
  rssUrl: string;
  /** Where a reader joins: the app, on the group. */
  joinUrl: string;
  /** `?before=` of the next older page, when there is one. */
  olderBefore?: number;
  /** Whether this is an older page (a link back to the newest). */
  paged: boolean;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d1f23;background:#f6f7f9}
header,main,footer{max-width:48rem;margin:0 auto;padding:1rem}
header{border-bottom:1px solid #dde0e5}h1{margin:0;font-size:1.5rem}
.join{display:inline-block;margin-top:.5rem;padding:.4rem .9rem;border-radius:6px;background:#3b5bdb;color:#fff;text-decoration:none}
ol{list-style:none;padding:0;margin:0}li{padding:.6rem 0;border-bottom:1px solid #e6e8eb}
.meta{font-size:.85rem;color:#5c6370}.author{font-weight:600;color:#1d1f23}
.content p{margin:.2rem 0}pre{overflow:auto;background:#eceef1;padding:.5rem;border-radius:4px}
nav{display:flex;gap:1rem;padding:1rem 0}footer{font-size:.85rem;color:#5c6370}
.spoiler{border-radius:3px;background:#dde0e5;cursor:pointer}.spoiler:focus{outline:2px solid #3b5bdb}
.spoiler:not(:hover):not(:focus-within),.spoiler:not(:hover):not(:focus-within) *{color:transparent;background:#5c6370;text-shadow:none}
@media (prefers-color-scheme:dark){body{background:#1b1d21;color:#e3e5e8}.author{color:#e3e5e8}li{border-color:#2c2f34}pre{background:#26292e}.spoiler{background:#2c2f34}}`;

/**
 * A web-public panel as a page that needs no JavaScript: its messages
 * rendered from Markdown (safe rules), every user-supplied string escaped,
 * with what link previews elsewhere read (description, OpenGraph, canonical).
 */
export function renderPanelPage(page: PageSource): string {
  const text = pageText(page.language);
  const newest = page.messages.at(-1);
  const description =
    page.description || (newest ? plainText(newest.content, 200) : text('readableByAnyone', { title: page.title }));
  const items = page.messages.map((m) => {
    const author = x(authorName(page.authors, m.authorId, text));
    const edited = m.editedAt ? ` <span class="edited">${x(text('edited'))}</span>` : '';
    const when = text('posted', { at: new Date(m.createdAt) });
    return `<li id="m${m.seq}"><div class="meta"><span class="author">${author}</span> <a href="${x(page.messageUrl(m))}"><time datetime="${x(m.createdAt)}">${x(when)}</time></a>${edited}</div><div class="content">${renderMarkdown(m.content)}</div></li>`;
  });
  const nav = [
    ...(page.olderBefore !== undefined
      ? [`<a rel="prev" href="?before=${page.olderBefore}">${x(text('older'))}</a>`]
      : []),
    ...(page.paged ? [`<a href="${x(page.pageUrl)}">${x(text('newer'))}</a>`] : []),
  ];
  return `<!doctype html>
<html lang="${LANGUAGE_TAGS[page.language]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${x(page.title)}</title>
<meta name="description" content="${x(description)}">
<link rel="canonical" href="${x(page.canonicalUrl)}">
<meta property="og:type" content="website">
<meta property="og:title" content="${x(page.title)}">
<meta property="og:description" content="${x(description)}">
<meta property="og:url" content="${x(page.canonicalUrl)}">
<meta name="twitter:card" content="summary">
<link rel="alternate" type="application/atom+xml" title="${x(page.title)} (Atom)" href="${x(page.atomUrl)}">
<link rel="alternate" type="application/rss+xml" title="${x(page.title)} (RSS)" href="${x(page.rssUrl)}">
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${x(page.title)}</h1>
${page.description ? `<p class="description">${x(page.description)}</p>\n` : ''}<a class="join" href="${x(page.joinUrl)}">${x(text('join'))}</a>
</header>
<main>
${items.length > 0 ? `<ol class="messages">\n${items.join('\n')}\n</ol>` : `<p>${x(text('empty'))}</p>`}
${nav.length > 0 ? `<nav>${nav.join(' ')}</nav>` : ''}
</main>
<footer>${x(text('follow'))} <a href="${x(page.atomUrl)}">${x(text('atom'))}</a> · <a href="${x(page.rssUrl)}">${x(text('rss'))}</a></footer>
</body>
</html>
`;
}
