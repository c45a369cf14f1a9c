import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { configSchema, type Config, type ConfigKey } from './schema.ts';

/** The effective configuration: like Config, with the secret always resolved. */
export type AppConfig = Omit<Config, 'secret'> & {
  secret: string;
  /** Where the secret came from, for the start-up summary. */
  secretSource: 'env' | 'dev-file' | 'test-random';
};

/** Thrown on bad configuration; the message names the variable and is meant to be printed as is. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly variable: string;
  constructor(variable: string, reason: string) {
    super(`configuration error: ${variable} ${reason}`);
    this.variable = variable;
  }
}

type Env = Record<string, string | undefined>;

/** Parses and validates the environment. Throws ConfigError on the first bad variable. */
export function parseConfig(env: Env = process.env): Config {
  const out: Partial<Record<ConfigKey, unknown>> = {};
  for (const key of Object.keys(configSchema) as ConfigKey[]) {
    const spec = configSchema[key];
    const raw = env[spec.env];
    const unset = raw === undefined || (raw === '' && !spec.keepEmpty);
    const value = unset ? ('default' in spec ? spec.default : undefined) : raw;
    const result = spec.parse.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      const shown = spec.secret ? '' : ` (got ${JSON.stringify(raw ?? '')})`;
      throw new ConfigError(spec.env, `${issue?.message ?? 'is invalid'}${shown}`);
    }
    out[key] = result.data;
  }
  const config = out as Config;
  checkOidcComplete(config);
  checkMailComplete(config);
  checkLiveKitComplete(config);
  checkRedisSentinelComplete(config);
  return config;
}

/** Single sign-on needs all three of issuer, client id and secret: some alone is a mistake, not "off". */
function checkOidcComplete(config: Config): void {
  const parts = [
    [configSchema.oidcIssuer.env, config.oidcIssuer],
    [configSchema.oidcClientId.env, config.oidcClientId],
    [configSchema.oidcClientSecret.env, config.oidcClientSecret],
  ] as const;
  const missing = parts.filter(([, value]) => value === undefined).map(([env]) => env);
  if (missing.length > 0 && missing.length < parts.length) {
    const present = parts.filter(([, value]) => value !== undefined).map(([env]) => env);
    throw new ConfigError(
      missing[0]!,
      `is missing while ${present.join(' and ')} ${present.length > 1 ? 'are' : 'is'} set: single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together`,
    );
  }
}

/** E-mail needs a sender: SMTP_URL alone would send from nobody. */
function checkMailComplete(config: Config): void {
  if (config.smtpUrl !== undefined && config.mailFrom === undefined)
    throw new ConfigError(configSchema.mailFrom.env, 'is required when SMTP_URL is set (the sender of every e-mail)');
}

/** A LiveKit server needs its key pair: tokens are signed and webhooks checked with it. */
function checkLiveKitComplete(config: Config): void {
  if (config.livekitUrl === undefined) return;
  for (const [env, value] of [
    [configSchema.livekitApiKey.env, config.livekitApiKey],
    [configSchema.livekitApiSecret.env, config.livekitApiSecret],
  ] as const) {
    if (value === undefined) throw new ConfigError(env, 'is required when LIVEKIT_URL is set');
  }
}

/** Through Sentinel, REDIS_URL still says that Redis is used and carries the master's password, database and TLS. */
function checkRedisSentinelComplete(config: Config): void {
  if (config.redisSentinels !== undefined && config.redisUrl === undefined)
    throw new ConfigError(
      configSchema.redisUrl.env,
      `is required when REDIS_SENTINELS is set: it gives the master's password, database and TLS, its host is not used (e.g. redis://:secret@${config.redisSentinelName}/0)`,
    );
}

/** OWASP's argon2id baseline: the least a production deployment may use. */
export const OWASP_ARGON2_MEMORY_KIB = 19_456;

/**
 * Parses the environment and resolves the signing secret: required in
 * production; in development kept in DATA_DIR/.dev-secret so tokens survive a
 * restart; in test random per process.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const config = parseConfig(env);
  if (config.nodeEnv === 'production' && config.passwordHashMemoryKib < OWASP_ARGON2_MEMORY_KIB) {
    throw new ConfigError(
      'PASSWORD_HASH_MEMORY_KIB',
      `must be at least ${OWASP_ARGON2_MEMORY_KIB} when NODE_ENV=production`,
    );
  }
  if (config.secret) return { ...config, secret: config.secret, secretSource: 'env' };
  if (config.nodeEnv === 'production') {
    throw new ConfigError('SECRET', 'is required when NODE_ENV=production (at least 32 random characters)');
  }
  if (config.nodeEnv === 'test') {
    return { ...config, secret: randomBytes(32).toString('base64url'), secretSource: 'test-random' };
  }
  return { ...config, secret: readOrCreateDevSecret(config.dataDir), secretSource: 'dev-file' };
}

function readOrCreateDevSecret(dataDir: string): string {
  const file = join(resolve(dataDir), '.dev-secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // Not there yet: create it below.
  }
  const secret = randomBytes(32).toString('base64url');
  try {
    mkdirSync(resolve(dataDir), { recursive: true });
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  } catch (err) {
    throw new ConfigError('DATA_DIR', `is not writable for the development secret (${String(err)})`);
  }
  return secret;
}
