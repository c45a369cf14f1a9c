import { CUSTOM_EMOJI_NAME, type CustomEmoji } from '@im/protocol';
import { Children, cloneElement, createContext, isValidElement, useContext, useMemo, type ReactNode } from 'react';
import { useFileUrl } from '../../state/file-urls.ts';
import { useGroupEmoji, useGroupIdOf } from '../../state/custom-emoji.ts';

/** The custom emoji of the converse on screen, by name (empty in a DM). */
export const CustomEmojiContext = createContext<ReadonlyMap<string, CustomEmoji>>(new Map());

/** Gives everything under it (messages, reactions, pickers) the converse's group's custom emoji. */
export function CustomEmojiScope(props: { converseId: string; children: ReactNode }) {
  const list = useGroupEmoji(useGroupIdOf(props.converseId));
  const map = useMemo(() => new Map(list.map((e) => [e.name, e])), [list]);
  return <CustomEmojiContext.Provider value={map}>{props.children}</CustomEmojiContext.Provider>;
}

/** A custom emoji's image, through a signed URL (no token in the page). */
export function CustomEmojiImage(props: { emoji: CustomEmoji; size?: 'inline' | 'large' }) {
  const url = useFileUrl(props.emoji.fileId);
  const label = `:${props.emoji.name}:`;
  return url ? (
    <img className={`custom-emoji ${props.size ?? 'inline'}`} src={url} alt={label} title={label} draggable={false} />
  ) : (
    <span className="custom-emoji-missing">{label}</span>
  );
}

const CUSTOM = new RegExp(`^:(${CUSTOM_EMOJI_NAME}):$`);

/** A reaction's emoji: Unicode as text, a known `:name:` as its image, an unknown one as text. */
export function EmojiGlyph(props: { emoji: string }) {
  const custom = useContext(CustomEmojiContext);
  const name = CUSTOM.exec(props.emoji)?.[1];
  const found = name ? custom.get(name) : undefined;
  return found ? <CustomEmojiImage emoji={found} /> : <>{props.emoji}</>;
}

const IN_TEXT = new RegExp(`:(${CUSTOM_EMOJI_NAME}):`, 'g');

function splitText(text: string, custom: ReadonlyMap<string, CustomEmoji>): ReactNode {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(IN_TEXT)) {
    const found = custom.get(match[1]!);
    if (!found) continue;
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(<CustomEmojiImage key={`${match.index}`} emoji={found} />);
    last = match.index + match[0].length;
  }
  if (parts.length === 0) return text;
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** Elements whose text is shown exactly as written (code), never turned into emoji. */
const VERBATIM = new Set(['code', 'pre']);

/**
 * Replaces `:name:` of the group's custom emoji with their images in already
 * rendered message text: a pass over the text nodes, so it composes with
 * whatever renders the text (Markdown) and leaves code alone.
 */
export function withCustomEmoji(nodes: ReactNode, custom: ReadonlyMap<string, CustomEmoji>): ReactNode {
  if (custom.size === 0) return nodes;
  const walk = (node: ReactNode): ReactNode => {
    if (typeof node === 'string') return splitText(node, custom);
    if (Array.isArray(node)) return Children.map(node, walk);
    if (!isValidElement<{ children?: ReactNode }>(node)) return node;
    if (typeof node.type === 'string' && VERBATIM.has(node.type)) return node;
    const children = node.props.children;
    if (children === undefined) return node;
    return cloneElement(node, undefined, walk(children));
  };
  return walk(nodes);
}
