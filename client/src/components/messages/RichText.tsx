import { useContext, useMemo } from 'react';
import { CustomEmojiContext, withCustomEmoji } from '../emoji/CustomEmojiContext.tsx';
import { parseBlocks, parseInline } from './markdown/parser.ts';
import { renderTokens } from './markdown/render.tsx';

/**
 * Message text as React nodes, rendered from Markdown with the rules the
 * public pages use (no raw HTML, http(s)/mailto links only, no images,
 * `||spoilers||`). Every string goes through React, so markup in a message
 * is shown as text; `@name` of a mentioned user is highlighted. `inline`
 * keeps it to one run of text (a `/me` action).
 */
export function RichText(props: {
  text: string;
  mentionNames?: ReadonlySet<string>;
  myName?: string;
  inline?: boolean;
}) {
  const { text, mentionNames, myName, inline } = props;
  const customEmoji = useContext(CustomEmojiContext);
  const nodes = useMemo(() => {
    const env = { mentionNames, myName };
    // `:name:` of the group's custom emoji become images in the rendered text (code excepted).
    return withCustomEmoji(renderTokens(inline ? parseInline(text, env) : parseBlocks(text, env)), customEmoji);
  }, [text, mentionNames, myName, inline, customEmoji]);
  return inline ? <span className="markdown">{nodes}</span> : <div className="markdown">{nodes}</div>;
}
