import { mentionToken } from '../../source/mention-token.ts';

/**
 * Slack's mrkdwn to this platform's Markdown.
 *
 * In an export's `text`, `&`, `<` and `>` typed by people are escaped as
 * entities, so every raw `<…>` is Slack's own markup: `<@U123>` a person,
 * `<#C123|name>` a channel, `<!here>` a broadcast, `<url|label>` a link.
 * Emphasis is single-character and must sit at word edges: `*bold*`,
 * `_italic_`, `~strike~`. Code spans and blocks are copied as they are
 * (only their entities are unescaped). Emoji shortcodes stay as text.
 */
export interface MrkdwnContext {
  /** A channel's name by its id, for `<#C123>` written without one. */
  channelName(id: string): string | undefined;
}

// Placeholders for the parts already translated, so emphasis rules never
// look inside a link or a code span. Private-use characters, removed from
// the input first so no text can pose as one.
const HOLD_OPEN = '\u{E002}';
const HOLD_CLOSE = '\u{E003}';
const HELD = /\u{E002}(\d+)\u{E003}/gu;
const PRIVATE_MARKERS = /[\u{E000}-\u{E003}]/gu;

const CODE_BLOCK = /```([\s\S]*?)```/g;
const CODE_SPAN = /`([^`\n]+)`/g;
const SLACK_MARKUP = /<([^<>\n]+)>/g;

// Where an emphasis mark may open or close: the text's edges, spaces, brackets,
// quotes, punctuation and the other marks (so `*_both_*` works).
const BEFORE = `(^|[\\s([{"'*_~${HOLD_CLOSE}])`;
const AFTER = `(?=$|[\\s.,;:!?)\\]}"'*_~${HOLD_OPEN}])`;
const emphasis = (mark: '*' | '_' | '~'): RegExp => {
  const m = mark === '*' ? '\\*' : mark;
  return new RegExp(`${BEFORE}${m}(?!\\s)([^${m}\\n]*?[^\\s${m}])${m}${AFTER}`, 'gmu');
};
const BOLD = emphasis('*');
const ITALIC = emphasis('_');
const STRIKE = emphasis('~');

export function mrkdwnToMarkdown(text: string, context: MrkdwnContext): string {
  const held: { text: string; block: boolean }[] = [];
  const hold = (value: string, block = false): string => {
    held.push({ text: value, block });
    return `${HOLD_OPEN}${held.length - 1}${HOLD_CLOSE}`;
  };

  let out = text.replace(PRIVATE_MARKERS, '');
  out = out.replace(CODE_BLOCK, (whole, body: string) => {
    const code = unescapeEntities(body);
    // Slack writes ```a\nb``` on the lines of the text around it; Markdown
    // needs the fences on lines of their own.
    return code.includes('\n')
      ? hold(`\`\`\`\n${code.replace(/^\n|\n$/g, '')}\n\`\`\``, true)
      : hold(unescapeEntities(whole));
  });
  out = out.replace(CODE_SPAN, (whole) => hold(unescapeEntities(whole)));
  out = out.replace(SLACK_MARKUP, (_whole, inner: string) => hold(translateMarkup(inner, context)));
  out = out.replace(BOLD, '$1**$2**').replace(ITALIC, '$1*$2*').replace(STRIKE, '$1~~$2~~');
  out = unescapeEntities(out);
  return out.replace(HELD, (_whole, index: string, offset: number, all: string) => {
    const part = held[Number(index)]!;
    if (!part.block) return part.text;
    const before = offset > 0 && all[offset - 1] !== '\n' ? '\n' : '';
    const next = all[offset + _whole.length];
    const after = next !== undefined && next !== '\n' ? '\n' : '';
    return `${before}${part.text}${after}`;
  });
}

/** One `<…>`: its target, then after a `|` the label Slack showed. */
function translateMarkup(inner: string, context: MrkdwnContext): string {
  const bar = inner.indexOf('|');
  const target = unescapeEntities(bar < 0 ? inner : inner.slice(0, bar));
  const label = bar < 0 ? undefined : unescapeEntities(inner.slice(bar + 1));
  switch (target[0]) {
    case '@':
      return mentionToken(target.slice(1));
    case '#': {
      const id = target.slice(1);
      return `#${label || context.channelName(id) || id}`;
    }
    case '!':
      return broadcast(target.slice(1), label);
    default:
      return link(target, label);
  }
}

/** `<!channel>`, `<!everyone>`, `<!here>`, user groups (`<!subteam^S1|@team>`), dates (`<!date^…|fallback>`). */
function broadcast(command: string, label: string | undefined): string {
  const name = command.split('^')[0]!;
  if (name === 'channel' || name === 'everyone') return '@all';
  if (name === 'here') return '@here';
  if (label) return label;
  return name === 'subteam' || name === 'date' ? '' : `@${name}`;
}

function link(url: string, label: string | undefined): string {
  if (!label || label === url) return url;
  const target = /[\s()<>]/.test(url) ? `<${url}>` : url;
  return `[${label.replace(/([[\]\\])/g, '\\$1')}](${target})`;
}

function unescapeEntities(text: string): string {
  return text.replace(/&(lt|gt|amp);/g, (_m, name: string) => (name === 'lt' ? '<' : name === 'gt' ? '>' : '&'));
}
