export { createMarkdown } from './configure.ts';
export { hideSpoilers } from './hide-spoilers.ts';
export { plainText, SPOILER } from './plain-text.ts';
export type { MarkdownIt, StateInline, Token } from 'markdown-it';
