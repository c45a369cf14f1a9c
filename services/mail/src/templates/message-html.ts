import { createMarkdown, hideSpoilers, plainText, type MarkdownIt } from '@im/markdown';

let md: MarkdownIt | undefined;

/**
 * The shared message Markdown (raw HTML escaped, safe links only, no
 * images), with each spoiler's words replaced by "[spoiler]": an e-mail
 * cannot hide them until clicked, so they are left out.
 */
function markdown(): MarkdownIt {
  md ??= createMarkdown().use(hideSpoilers);
  return md;
}

/** A message's Markdown as e-mail HTML. */
export const messageHtml = (content: string): string => markdown().render(content);

/** A message's Markdown as one line of e-mail text (spoilers shown as "[spoiler]"). */
export const messageText = (content: string, max = 1000): string => plainText(content, max);
