export { createMarkdown, LINK_REL, SAFE_LINK } from './configure.ts';
export { plainText } from './plain-text.ts';
export { textUntil } from './text-rule.ts';
export type { MarkdownIt, StateInline, Token } from 'markdown-it';
