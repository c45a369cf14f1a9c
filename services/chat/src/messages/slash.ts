/** What a send that starts with `/word` turns into. */
export type Slash =
  | { kind: 'command'; trigger: string; text: string }
  /** A built-in: stored with this content instead (`/me` as an emote). */
  | { kind: 'builtin'; content: string; emote: boolean };

const SLASH_CODE = 0x2f;
const SLASH = /^\/([A-Za-z0-9_-]{1,32})(?:\s+([\s\S]*))?$/;
// Written as Markdown, so the rendered message keeps its backslash and shows no italics.
const SHRUG = '¯\\\\\\_(ツ)\\_/¯';

/**
 * Reads `/trigger text`: the built-ins `/me text` and `/shrug [text]`, else
 * a possible command of the group (undefined: not a slash at all, or `/me`
 * with nothing to say, which is sent as it is).
 */
export function parseSlash(content: string): Slash | undefined {
  // Almost every message starts with something else: no trimmed copy of it is made then.
  const first = content.charCodeAt(0);
  if (first !== SLASH_CODE && !(first <= 32 || first === 0xa0 || first === 0xfeff || first >= 0x1680)) return undefined;
  const match = SLASH.exec(content.trim());
  if (!match) return undefined;
  const trigger = match[1]!.toLowerCase();
  const text = (match[2] ?? '').trim();
  if (trigger === 'me') return text ? { kind: 'builtin', content: text, emote: true } : undefined;
  if (trigger === 'shrug') return { kind: 'builtin', content: text ? `${text} ${SHRUG}` : SHRUG, emote: false };
  return { kind: 'command', trigger, text };
}
