import type {
  SlackChannel,
  SlackFile,
  SlackMessage,
  SlackReaction,
  SlackUser,
  SlackUserProfile,
} from './export-shapes.ts';

/**
 * An export's JSON as the shapes of `export-shapes.ts`, keeping only fields
 * of the expected type: a hand-edited or half-written export must never make
 * the reader throw (a number where text was expected, a string where a list
 * was), it only loses what is malformed.
 */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : undefined;
const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** Only the fields that are there, so tests and callers see no `undefined` keys. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const value = (v: unknown): { value?: string } | undefined =>
  isObject(v) ? defined({ value: str(v.value) }) : undefined;

export function cleanUser(raw: unknown): SlackUser | undefined {
  if (!isObject(raw)) return undefined;
  const p = isObject(raw.profile) ? raw.profile : {};
  return defined({
    id: str(raw.id),
    team_id: str(raw.team_id),
    name: str(raw.name),
    real_name: str(raw.real_name),
    deleted: raw.deleted === true ? true : undefined,
    is_bot: raw.is_bot === true ? true : undefined,
    profile: defined({
      email: str(p.email),
      display_name: str(p.display_name),
      real_name: str(p.real_name),
      bot_id: str(p.bot_id),
    }),
  });
}

export function cleanChannel(raw: unknown): SlackChannel | undefined {
  if (!isObject(raw)) return undefined;
  return defined({
    id: str(raw.id),
    name: str(raw.name),
    members: strings(raw.members),
    topic: value(raw.topic),
    purpose: value(raw.purpose),
    context_team_id: str(raw.context_team_id),
    created: typeof raw.created === 'number' ? raw.created : undefined,
    is_general: raw.is_general === true ? true : undefined,
  });
}

const cleanFile = (raw: Json): SlackFile =>
  defined({ id: str(raw.id), name: str(raw.name), title: str(raw.title), mode: str(raw.mode) });

const cleanReaction = (raw: Json): SlackReaction => defined({ name: str(raw.name), users: strings(raw.users) });

const cleanProfile = (raw: unknown): SlackUserProfile | undefined =>
  isObject(raw)
    ? defined({ name: str(raw.name), real_name: str(raw.real_name), display_name: str(raw.display_name) })
    : undefined;

export function cleanMessage(raw: unknown): SlackMessage | undefined {
  if (!isObject(raw)) return undefined;
  return defined({
    type: str(raw.type),
    subtype: str(raw.subtype),
    ts: str(raw.ts),
    user: str(raw.user),
    user_profile: cleanProfile(raw.user_profile),
    bot_id: str(raw.bot_id),
    username: str(raw.username),
    bot_profile: isObject(raw.bot_profile) ? defined({ name: str(raw.bot_profile.name) }) : undefined,
    text: str(raw.text),
    thread_ts: str(raw.thread_ts),
    edited: isObject(raw.edited) ? defined({ ts: str(raw.edited.ts) }) : undefined,
    reactions: objects(raw.reactions).map(cleanReaction),
    files: objects(raw.files).map(cleanFile),
    file: isObject(raw.file) ? cleanFile(raw.file) : undefined,
    pinned_to: strings(raw.pinned_to),
    attachments: objects(raw.attachments).map((a) =>
      defined({ fallback: str(a.fallback), pretext: str(a.pretext), text: str(a.text) }),
    ),
  });
}
