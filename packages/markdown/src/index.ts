export { createMarkdown } from './configure.ts';
export { plainText } from './plain-text.ts';
export type { MarkdownIt, StateInline, Token } from 'markdown-it';
