import type { SourceUser } from '../../source/types.ts';
import type { SlackMessage, SlackUser } from './export-shapes.ts';

/** Slack's own bot posts reminders and notices as this user, never listed in `users.json`. */
export const SLACKBOT = 'USLACKBOT';

/** A person of `users.json`, or undefined when the entry has no id. */
export function toSourceUser(user: SlackUser): SourceUser | undefined {
  if (!user.id) return undefined;
  const profile = user.profile ?? {};
  return {
    key: user.id,
    username: user.name || user.id,
    ...optional('displayName', profile.display_name || profile.real_name || user.real_name),
    ...optional('email', profile.email),
    ...(user.deleted ? { deleted: true } : {}),
    ...(user.is_bot ? { bot: true } : {}),
  };
}

/**
 * Who wrote a message: its `user`; else, for a bot's message (a webhook or
 * an old integration, which has no user), the bot itself, keyed by its
 * `bot_id` (or its `username` when even that is missing).
 */
export function authorKey(message: SlackMessage): string | undefined {
  if (message.user) return message.user;
  if (message.bot_id) return message.bot_id;
  if (message.username) return `bot:${message.username}`;
  return undefined;
}

/**
 * An author `users.json` does not list, made from what the message says of
 * it: a bot's name, or the profile Slack copies into messages. Undefined when
 * the message says nothing (the writer then makes an unknown person).
 */
export function userFromMessage(key: string, message: SlackMessage): SourceUser | undefined {
  if (key === SLACKBOT) return { key, username: 'slackbot', displayName: 'Slackbot', bot: true };
  const profile = message.user_profile;
  if (profile?.name) {
    return { key, username: profile.name, ...optional('displayName', profile.display_name || profile.real_name) };
  }
  if (message.bot_id || message.subtype === 'bot_message') {
    const name = message.username || message.bot_profile?.name || key;
    return { key, username: name, displayName: name, bot: true };
  }
  return undefined;
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value ? { [key]: value } : {}) as { [P in K]?: string };
}
