import type { Token } from '@im/markdown';
import { createElement, type ReactNode } from 'react';
import { CodeBlock } from './CodeBlock.tsx';
import { Spoiler } from './Spoiler.tsx';

/** Block and inline elements markdown-it may open: anything else is rendered as its children only. */
const TAGS = new Set([
  'p',
  'strong',
  'em',
  's',
  'ul',
  'ol',
  'li',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);

/** The element an opening token stands for, around its rendered children. */
function element(open: Token, children: ReactNode[], key: number): ReactNode {
  if (open.type === 'spoiler_open') return <Spoiler key={key}>{children}</Spoiler>;
  if (open.type === 'link_open') {
    // markdown-it already refused unsafe targets (they stay text); rel and target come from the shared rules.
    return (
      <a key={key} href={String(open.attrGet('href') ?? '')} rel={String(open.attrGet('rel') ?? '')} target="_blank">
        {children}
      </a>
    );
  }
  // A tight list's paragraphs are hidden: their text sits directly in the item.
  if (open.hidden || !TAGS.has(open.tag)) return children;
  const start = open.tag === 'ol' ? Number(open.attrGet('start') ?? 1) : 1;
  return createElement(open.tag, start !== 1 ? { key, start } : { key }, ...children);
}

/** A token without children: text, code, line breaks, mentions. */
function leaf(token: Token, key: number): ReactNode {
  switch (token.type) {
    case 'inline':
      return renderTokens(token.children ?? []);
    case 'softbreak':
    case 'hardbreak':
      return <br key={key} />;
    case 'code_inline':
      return <code key={key}>{token.content}</code>;
    case 'fence':
    case 'code_block':
      // markdown-it keeps the newline that ends the last line; a <pre> would show it as an empty line.
      return (
        <CodeBlock
          key={key}
          code={token.content.replace(/\n$/, '')}
          language={token.info.trim().split(/\s+/)[0] ?? ''}
        />
      );
    case 'hr':
      return <hr key={key} />;
    case 'mention':
      return (
        <span key={key} className={(token.meta as { me: boolean }).me ? 'mention me' : 'mention'}>
          {token.content}
        </span>
      );
    default:
      // text, and anything unexpected, as a string: React escapes it.
      return token.content;
  }
}

/** markdown-it tokens as React nodes; every string goes through React, so nothing is parsed as HTML. */
export function renderTokens(tokens: readonly Token[]): ReactNode[] {
  const root: ReactNode[] = [];
  const stack: { open: Token; children: ReactNode[] }[] = [];
  tokens.forEach((token, i) => {
    const into = stack.at(-1)?.children ?? root;
    if (token.nesting === 1) stack.push({ open: token, children: [] });
    else if (token.nesting === -1) {
      const done = stack.pop();
      if (done) (stack.at(-1)?.children ?? root).push(element(done.open, done.children, i));
    } else into.push(leaf(token, i));
  });
  return root;
}
