import { createMarkdown, plainText as sharedPlainText } from '@im/markdown';
import { dropForbidden } from './escape.ts';

/** Message Markdown with the rules the web client uses too (safe links, no HTML, no images, spoilers). */
const md = createMarkdown();

/** A message's content as HTML. */
export const renderMarkdown = (content: string): string => md.render(dropForbidden(content));

/** A message's content as one line of plain text (titles, descriptions): the words Markdown would show. */
export const plainText = (content: string, max: number): string => sharedPlainText(dropForbidden(content), max);
