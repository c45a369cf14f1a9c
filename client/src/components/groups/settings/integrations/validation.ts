import { t } from '../../../../i18n/i18n.ts';
import { BUILT_IN_COMMAND_TRIGGERS } from '@im/protocol';

// What the integration forms check before asking the server, each answering
// a sentence to show (in the current language) or null. The server checks again (and refuses private
// addresses, which only it can resolve).

export const MAX_NAME = 64;
export const MAX_URL = 2000;
export const MAX_DESCRIPTION = 200;
export const MAX_TRIGGER = 32;

export function nameProblem(name: string, what: 'bot' | 'webhook'): string | null {
  const text = name.trim();
  if (!text) return t('integrations.problem.nameMissing', { what });
  if (text.length > MAX_NAME) return t('integrations.problem.nameLong', { what, max: MAX_NAME });
  return null;
}

/** An address the server will POST to: absolute, http or https. */
export function urlProblem(url: string): string | null {
  const text = url.trim();
  if (!text) return t('integrations.problem.urlMissing');
  if (text.length > MAX_URL) return t('integrations.problem.urlLong', { max: MAX_URL });
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return t('integrations.problem.urlInvalid');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return t('integrations.problem.urlScheme');
  }
  return null;
}

/** A command's trigger as typed, without the slash. */
export const bareTrigger = (text: string): string => text.trim().replace(/^\//, '');

export function triggerProblem(text: string): string | null {
  const trigger = bareTrigger(text);
  if (!trigger) return t('integrations.problem.triggerMissing');
  if (!/^[a-z0-9_-]+$/.test(trigger) || trigger.length > MAX_TRIGGER) {
    return t('integrations.problem.triggerInvalid', { max: MAX_TRIGGER });
  }
  if (BUILT_IN_COMMAND_TRIGGERS.some((builtIn) => builtIn === trigger))
    return t('integrations.problem.triggerBuiltIn', { trigger });
  return null;
}

/** "deploy, status ,,ship" → ["deploy", "status", "ship"]: trimmed, no blanks, no repeats. */
export function parseTriggerWords(text: string): string[] {
  const words = text
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w.length > 0);
  return [...new Set(words)];
}

export const MAX_TRIGGER_WORDS = 20;

export function triggerWordsProblem(text: string): string | null {
  const words = parseTriggerWords(text);
  if (words.length > MAX_TRIGGER_WORDS) return t('integrations.problem.wordsMany', { max: MAX_TRIGGER_WORDS });
  if (words.some((w) => /\s/.test(w))) return t('integrations.problem.wordsSpaces');
  if (words.some((w) => w.length > MAX_NAME)) return t('integrations.problem.wordLong', { max: MAX_NAME });
  return null;
}

/** The address a hook's path is reached at from outside: this app's origin. */
export function absoluteUrl(path: string, origin = window.location.origin): string {
  return new URL(path, origin).href;
}

/** A shell command that posts "Hello" through an incoming webhook. */
export function curlExample(url: string): string {
  return `curl -X POST -H 'content-type: application/json' -d '{"text":"Hello"}' ${url}`;
}
