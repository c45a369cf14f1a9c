import { mrkdwnToMarkdown } from './mrkdwn.ts';

/** A field of a legacy attachment: a small titled value. */
export interface SlackField {
  title?: string;
  value?: string;
  short?: boolean;
}

/** A legacy attachment, of the parts a message here can show. */
export interface SlackAttachment {
  fallback?: string;
  color?: string;
  pretext?: string;
  author_name?: string;
  author_link?: string;
  title?: string;
  title_link?: string;
  text?: string;
  fields?: SlackField[];
  image_url?: string;
  thumb_url?: string;
  footer?: string;
  blocks?: SlackBlock[];
}

/** A Block Kit text object. */
interface TextObject {
  type?: string;
  text?: string;
}

/** A block, of the kinds that carry text (others are left out). */
export interface SlackBlock {
  type?: string;
  text?: TextObject;
  fields?: TextObject[];
  elements?: Array<TextObject & { alt_text?: string; image_url?: string }>;
  image_url?: string;
  alt_text?: string;
  title?: TextObject;
}

const isHttp = (url: unknown): url is string => typeof url === 'string' && /^https?:\/\/\S+$/i.test(url);
const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
/** Markdown-escaped plain text (a `plain_text` object, a header). */
const plain = (text: string) => text.replace(/([\\`*_~[\]<>|])/g, '\\$1');
const textOf = (object: TextObject | undefined): string | undefined => {
  const text = str(object?.text);
  if (!text) return undefined;
  return object?.type === 'plain_text' ? plain(text) : mrkdwnToMarkdown(text);
};
const linked = (text: string, url: unknown) => (isHttp(url) ? `[${text}](${url})` : text);

/** A block as Markdown lines: sections, headers, context, images and dividers. */
function blockLines(block: SlackBlock): string[] {
  switch (block.type) {
    case 'header': {
      const text = str(block.text?.text);
      return text ? [`**${plain(text)}**`] : [];
    }
    case 'section':
      return [
        textOf(block.text),
        ...(Array.isArray(block.fields) ? block.fields.map(textOf) : []),
        isHttp(block.image_url) ? `[${plain(str(block.alt_text) ?? 'image')}](${block.image_url})` : undefined,
      ].filter((line): line is string => line !== undefined);
    case 'context': {
      const parts = (Array.isArray(block.elements) ? block.elements : [])
        .map((e) => (e.type === 'image' ? undefined : textOf(e)))
        .filter((part): part is string => part !== undefined);
      return parts.length > 0 ? [`_${parts.join(' · ')}_`] : [];
    }
    case 'image':
      return isHttp(block.image_url)
        ? [`[${plain(str(block.title?.text) ?? str(block.alt_text) ?? 'image')}](${block.image_url})`]
        : [];
    case 'divider':
      return ['---'];
    default:
      return [];
  }
}

/** Blocks as Markdown paragraphs. */
export const blocksToMarkdown = (blocks: SlackBlock[]): string[] =>
  blocks.flatMap((b) => (b && typeof b === 'object' ? blockLines(b) : [])).filter((l) => l !== '');

/**
 * One attachment as a Markdown quote: pretext above it, then the author, the
 * title (linked), the text, the fields (**title**: value), the image as a
 * link and the footer in small italics. An attachment with nothing else
 * shows its fallback.
 */
function attachmentLines(a: SlackAttachment): string[] {
  const body: string[] = [];
  const author = str(a.author_name);
  if (author) body.push(`_${linked(plain(author), a.author_link)}_`);
  const title = str(a.title);
  if (title) body.push(`**${linked(plain(title), a.title_link)}**`);
  const text = str(a.text);
  if (text) body.push(mrkdwnToMarkdown(text));
  for (const field of Array.isArray(a.fields) ? a.fields : []) {
    const name = str(field?.title);
    const value = str(field?.value);
    if (name || value)
      body.push(
        [name ? `**${plain(name)}**` : '', value ? mrkdwnToMarkdown(value) : ''].join(name && value ? ': ' : ''),
      );
  }
  if (Array.isArray(a.blocks)) body.push(...blocksToMarkdown(a.blocks));
  const image = a.image_url ?? a.thumb_url;
  if (isHttp(image)) body.push(`[${title ? plain(title) : 'image'}](${image})`);
  const footer = str(a.footer);
  if (footer) body.push(`_${mrkdwnToMarkdown(footer)}_`);
  if (body.length === 0 && str(a.fallback)) body.push(mrkdwnToMarkdown(a.fallback!));
  // A blank quote line between the parts keeps each its own paragraph.
  const quoted = body
    .map((part) =>
      part
        .split('\n')
        .map((line) => (line === '' ? '>' : `> ${line}`))
        .join('\n'),
    )
    .join('\n>\n');
  const pretext = str(a.pretext);
  return [...(pretext ? [mrkdwnToMarkdown(pretext)] : []), ...(quoted ? [quoted] : [])];
}

/** What a Slack-style post carries, as a message's Markdown. */
export interface SlackPost {
  text?: string;
  attachments?: SlackAttachment[];
  blocks?: SlackBlock[];
}

/**
 * A Slack incoming-webhook payload as one message's Markdown: the text,
 * else the blocks (Slack shows blocks in place of the text), then each
 * attachment. Empty when it carries nothing to show.
 */
export function slackPostToMarkdown(post: SlackPost): string {
  const blocks = Array.isArray(post.blocks) ? blocksToMarkdown(post.blocks) : [];
  const lead = blocks.length > 0 ? blocks : str(post.text) ? [mrkdwnToMarkdown(post.text!)] : [];
  const attachments = (Array.isArray(post.attachments) ? post.attachments : [])
    .filter((a) => a && typeof a === 'object')
    .flatMap(attachmentLines);
  return [...lead, ...attachments].join('\n\n').trim();
}
