import { createMarkdown, hideSpoilers, plainText as sharedPlainText } from '@im/markdown';
import { dropForbidden } from './escape.ts';

/** Message Markdown with the rules the web client uses too (safe links, no HTML, no images, spoilers). */
const md = createMarkdown();

/** The same for feeds: a feed reader shows no page style, so a spoiler's words are left out ("[spoiler]"). */
const feedMd = createMarkdown().use(hideSpoilers);

/** A message's content as HTML for a page (spoilers as spans its style hides until hovered or focused). */
export const renderMarkdown = (content: string): string => md.render(dropForbidden(content));

/** A message's content as HTML for a feed entry. */
export const renderFeedMarkdown = (content: string): string => feedMd.render(dropForbidden(content));

/** A message's content as one line of plain text (titles, descriptions): the words Markdown would show. */
export const plainText = (content: string, max: number): string => sharedPlainText(dropForbidden(content), max);
