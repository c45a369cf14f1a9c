import type { CommandResponse } from '@im/protocol';

/**
 * `{text, responseType?}` from the answer of a command or an outgoing hook's
 * receiver; anything else (or no text) gives nothing to post.
 */
export function parseAnswer(body: Buffer | undefined): CommandResponse | undefined {
  if (!body || body.length === 0) return undefined;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as Partial<CommandResponse> | null;
    const text = typeof parsed?.text === 'string' ? parsed.text.trim().slice(0, 4000) : '';
    if (!text) return undefined;
    return { text, responseType: parsed?.responseType === 'in_channel' ? 'in_channel' : 'ephemeral' };
  } catch {
    return undefined;
  }
}
