// The capacity benchmark's one configuration file (benchmark/capacity.config.json):
// what a simulated user does and how often, and how the run is judged. Every
// key is required (the file is the single source of the figures), keys
// starting with "//" are comments, anything else unknown is an error.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CapacityThresholds } from './types.ts';

export const DEFAULT_CONFIG_PATH = fileURLToPath(new URL('../../capacity.config.json', import.meta.url));

/** What a simulated user does between two think times, by weight in `actions`. */
export const ACTION_KINDS = [
  /** Switch to one of its converses: newest page of history, then ack the last seq. */
  'openConverse',
  /** Scroll up in the open converse: the page before the oldest loaded. */
  'readOlder',
  /** Type (sometimes), then `message:send` over the socket into the open converse. */
  'send',
  /** React to a recent message of the open converse. */
  'react',
  /** Edit one of its own recent messages. */
  'edit',
  /** Upload a small file (multipart), then send a message with it attached. */
  'upload',
  /** Look up a member of one of its groups by name, open the DM, send into it. */
  'startDm',
  /** Reload the sidebar: groups and unread counts. */
  'refresh',
  /** Go offline (close the socket) for a while, reconnect and `sync` from the last seqs. */
  'reconnect',
  /** Nothing: reading, away. */
  'idle',
] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export interface Range {
  min: number;
  max: number;
}

export type Thresholds = CapacityThresholds;

export interface CapacityConfig {
  actions: Record<ActionKind, number>;
  /** Pause between two actions of one user, uniform in [min, max]. */
  thinkSeconds: Range;
  /** Users added at once start (log in and load) one after the other, this many a second. */
  startRatePerSecond: number;
  /** Before a send: the share of sends preceded by `typing`, and how long the user types. */
  typing: { probability: number; seconds: Range };
  /** Message text: words per message; share of messages that @mention a member; that reply to a recent message. */
  message: { words: Range; mentionProbability: number; replyProbability: number };
  /** Upload size in bytes, uniform in [min, max]. */
  upload: { bytes: Range };
  /** How long a `reconnect` action stays offline. */
  reconnect: { offlineSeconds: Range };
  /** Emoji a `react` action picks from. */
  reactions: string[];
  /** `limit` of history reads. */
  historyPageSize: number;
  /** A request or ack without an answer after this long is an error. */
  requestTimeoutSeconds: number;
  /** A seq gap on a connected socket still open after this long counts as a missed message. */
  gapGraceSeconds: number;
  /** Client processes the simulated users are spread over. */
  clientProcesses: number;
  /** How often the coordinator samples (client figures and every node's /metrics). */
  sampleSeconds: number;
  /** Unbounded: a level counts as supported after being held this long with every threshold met. */
  windowSeconds: number;
  /**
   * Samples this soon after the user count changed are left out of threshold
   * checks and summaries (warm-up); after users were added, at least until
   * the last of them started, plus one sample.
   */
  settleSeconds: number;
  thresholds: Thresholds;
}

export class CapacityConfigError extends Error {}

type Spec =
  | { kind: 'number'; min: number; max?: number; integer?: boolean }
  | { kind: 'range'; min: number; max?: number; integer?: boolean }
  | { kind: 'strings' }
  | { kind: 'object'; fields: Record<string, Spec> };

const num = (min: number, max?: number, integer = false): Spec => ({
  kind: 'number',
  min,
  ...(max === undefined ? {} : { max }),
  integer,
});
const range = (min: number, integer = false): Spec => ({ kind: 'range', min, integer });
const obj = (fields: Record<string, Spec>): Spec => ({ kind: 'object', fields });

const SCHEMA = obj({
  actions: obj(Object.fromEntries(ACTION_KINDS.map((k) => [k, num(0)]))),
  thinkSeconds: range(0),
  startRatePerSecond: num(0.1),
  typing: obj({ probability: num(0, 1), seconds: range(0) }),
  message: obj({ words: range(1, true), mentionProbability: num(0, 1), replyProbability: num(0, 1) }),
  upload: obj({ bytes: range(1, true) }),
  reconnect: obj({ offlineSeconds: range(0) }),
  reactions: { kind: 'strings' },
  historyPageSize: num(1, 100, true),
  requestTimeoutSeconds: num(1),
  gapGraceSeconds: num(0),
  clientProcesses: num(1, 64, true),
  sampleSeconds: num(1),
  windowSeconds: num(1),
  settleSeconds: num(0),
  thresholds: obj({
    errorRate: num(0, 1),
    requestP99Ms: num(0),
    requestAvgMs: num(0),
    broadcastP99Ms: num(0),
    missedMessages: num(0, undefined, true),
  }),
});

function check(value: unknown, spec: Spec, path: string, problems: string[]): void {
  const where = path || '(top level)';
  const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  switch (spec.kind) {
    case 'number': {
      if (!isNumber(value)) return void problems.push(`${where}: must be a number (got ${JSON.stringify(value)})`);
      if (spec.integer && !Number.isInteger(value)) problems.push(`${where}: must be a whole number (got ${value})`);
      if (value < spec.min) problems.push(`${where}: must be at least ${spec.min} (got ${value})`);
      if (spec.max !== undefined && value > spec.max)
        problems.push(`${where}: must be at most ${spec.max} (got ${value})`);
      return;
    }
    case 'range': {
      const r = value as Partial<Range> | null;
      if (typeof r !== 'object' || r === null || Array.isArray(r))
        return void problems.push(`${where}: must be {"min": number, "max": number}`);
      const extra = Object.keys(r).filter((k) => k !== 'min' && k !== 'max' && !k.startsWith('//'));
      if (extra.length > 0) problems.push(`${where}: unknown key(s) ${extra.join(', ')} (expected min and max)`);
      for (const k of ['min', 'max'] as const)
        check(r[k], num(spec.min, spec.max, spec.integer), `${path}.${k}`, problems);
      if (isNumber(r.min) && isNumber(r.max) && r.min > r.max)
        problems.push(`${where}: min (${r.min}) is greater than max (${r.max})`);
      return;
    }
    case 'strings': {
      if (!Array.isArray(value) || value.length === 0 || value.some((s) => typeof s !== 'string' || s === ''))
        problems.push(`${where}: must be a non-empty list of non-empty strings`);
      return;
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return void problems.push(`${where}: must be an object`);
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (key.startsWith('//')) continue;
        if (!(key in spec.fields))
          problems.push(`${path ? `${path}.` : ''}${key}: unknown key (known: ${Object.keys(spec.fields).join(', ')})`);
      }
      for (const [key, sub] of Object.entries(spec.fields)) {
        const at = path ? `${path}.${key}` : key;
        if (!(key in record)) problems.push(`${at}: missing`);
        else check(record[key], sub, at, problems);
      }
    }
  }
}

/** Drops "//" comment keys, at every level. */
function stripComments(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripComments);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !k.startsWith('//'))
      .map(([k, v]) => [k, stripComments(v)]),
  );
}

/** Checks a parsed configuration; throws a CapacityConfigError listing every problem. */
export function validateCapacityConfig(raw: unknown, source = 'capacity config'): CapacityConfig {
  const problems: string[] = [];
  check(raw, SCHEMA, '', problems);
  if (problems.length === 0) {
    const actions = (raw as CapacityConfig).actions;
    if (ACTION_KINDS.every((k) => actions[k] === 0)) problems.push('actions: at least one weight must be above 0');
  }
  if (problems.length > 0)
    throw new CapacityConfigError(`${source} is not valid:\n  ${problems.join('\n  ')}\n(see benchmark/README.md)`);
  return stripComments(raw) as CapacityConfig;
}

export function loadCapacityConfig(path = DEFAULT_CONFIG_PATH): CapacityConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CapacityConfigError(`cannot read the capacity config ${path}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CapacityConfigError(`${path} is not JSON: ${(err as Error).message}`);
  }
  return validateCapacityConfig(raw, path);
}
