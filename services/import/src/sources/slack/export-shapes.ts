/**
 * The parts of a Slack export's JSON this reader uses, every field optional:
 * real exports vary with the plan, the export type, the tool that made them
 * and the year, so nothing is trusted to be there.
 */

export interface SlackProfile {
  email?: string;
  display_name?: string;
  real_name?: string;
  bot_id?: string;
}

/** An entry of `users.json` (`org_users.json` on Enterprise Grid). */
export interface SlackUser {
  id?: string;
  team_id?: string;
  name?: string;
  real_name?: string;
  deleted?: boolean;
  is_bot?: boolean;
  profile?: SlackProfile;
}

/** An entry of `channels.json`, `groups.json`, `mpims.json` or `dms.json`. */
export interface SlackChannel {
  id?: string;
  name?: string;
  members?: string[];
  topic?: { value?: string };
  purpose?: { value?: string };
  context_team_id?: string;
  /** Seconds since the epoch. */
  created?: number;
  /** The workspace's default channel (`#general`, whatever it is called now). */
  is_general?: boolean;
}

export interface SlackFile {
  id?: string;
  name?: string;
  title?: string;
  /** `tombstone` (deleted) or `hidden_by_limit` (beyond the plan's history): no bytes anywhere. */
  mode?: string;
}

export interface SlackReaction {
  name?: string;
  users?: string[];
}

/** The author details Slack copies into each message (also for people missing from `users.json`). */
export interface SlackUserProfile {
  name?: string;
  real_name?: string;
  display_name?: string;
}

/** A message of a day file (`<channel folder>/YYYY-MM-DD.json` holds an array of them). */
export interface SlackMessage {
  type?: string;
  subtype?: string;
  ts?: string;
  user?: string;
  user_profile?: SlackUserProfile;
  bot_id?: string;
  username?: string;
  bot_profile?: { name?: string };
  text?: string;
  thread_ts?: string;
  edited?: { ts?: string };
  reactions?: SlackReaction[];
  files?: SlackFile[];
  /** Old exports: one file per `file_share` message. */
  file?: SlackFile;
  pinned_to?: string[];
  /** Link previews and bots' cards: read only for their text when a message has none of its own. */
  attachments?: { fallback?: string; pretext?: string; text?: string }[];
}
