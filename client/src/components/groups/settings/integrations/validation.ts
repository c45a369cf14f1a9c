import { BUILT_IN_COMMANDS } from '../../../../state/commands.ts';

// What the integration forms check before asking the server, each answering
// a sentence to show or null. The server checks again (and refuses private
// addresses, which only it can resolve).

export const MAX_NAME = 64;
export const MAX_URL = 2000;
export const MAX_DESCRIPTION = 200;
export const MAX_TRIGGER = 32;

export function nameProblem(name: string, what: string): string | null {
  const text = name.trim();
  if (!text) return `Give the ${what} a name.`;
  if (text.length > MAX_NAME) return `A ${what} name is at most ${MAX_NAME} characters.`;
  return null;
}

/** An address the server will POST to: absolute, http or https. */
export function urlProblem(url: string): string | null {
  const text = url.trim();
  if (!text) return 'Enter the address to send to.';
  if (text.length > MAX_URL) return `The address is at most ${MAX_URL} characters.`;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return 'Enter a full address, starting with https:// or http://.';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return 'Only http:// and https:// addresses can be called.';
  }
  return null;
}

/** A command's trigger as typed, without the slash. */
export const bareTrigger = (text: string): string => text.trim().replace(/^\//, '');

export function triggerProblem(text: string): string | null {
  const trigger = bareTrigger(text);
  if (!trigger) return 'Enter the word that runs the command, such as deploy for /deploy.';
  if (!/^[a-z0-9_-]+$/.test(trigger) || trigger.length > MAX_TRIGGER) {
    return `A trigger is 1 to ${MAX_TRIGGER} lower-case letters, digits, - or _, with no spaces.`;
  }
  if (BUILT_IN_COMMANDS.some((c) => c.trigger === trigger)) return `/${trigger} is built in: choose another trigger.`;
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
  if (words.length > MAX_TRIGGER_WORDS) return `At most ${MAX_TRIGGER_WORDS} trigger words.`;
  if (words.some((w) => /\s/.test(w))) return 'Trigger words are single words, separated by commas.';
  if (words.some((w) => w.length > MAX_NAME)) return `A trigger word is at most ${MAX_NAME} characters.`;
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
