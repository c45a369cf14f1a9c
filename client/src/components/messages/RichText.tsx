import { Fragment, type ReactNode } from 'react';

// http(s) links up to whitespace; trailing punctuation is left outside the link.
const TOKEN = /(https?:\/\/[^\s<>"']+)|(@[a-z0-9_.-]{3,32})/gi;
const TRAILING = /[.,;:!?)\]]+$/;

/**
 * Message text as React nodes: React escapes every string, so markup in a
 * message is shown as text. Links open in a new tab without access to this
 * page (`noopener noreferrer`); `@name` of a mentioned user is highlighted.
 */
export function RichText(props: { text: string; mentionNames?: ReadonlySet<string>; myName?: string }) {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of props.text.matchAll(TOKEN)) {
    const start = match.index;
    if (start > last) nodes.push(props.text.slice(last, start));
    if (match[1]) {
      let url = match[1];
      const trail = TRAILING.exec(url)?.[0] ?? '';
      url = url.slice(0, url.length - trail.length);
      nodes.push(
        <a key={start} href={url} target="_blank" rel="noopener noreferrer">
          {url}
        </a>,
      );
      if (trail) nodes.push(trail);
    } else {
      const name = match[2]!.slice(1).toLowerCase();
      if (props.mentionNames?.has(name)) {
        nodes.push(
          <span key={start} className={name === props.myName ? 'mention me' : 'mention'}>
            {match[2]}
          </span>,
        );
      } else nodes.push(match[2]);
    }
    last = start + match[0].length;
  }
  if (last < props.text.length) nodes.push(props.text.slice(last));
  return (
    <>
      {nodes.map((node, i) => (
        <Fragment key={i}>{node}</Fragment>
      ))}
    </>
  );
}
