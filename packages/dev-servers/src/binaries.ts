import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/** The cache scripts/setup.sh fills (kept in step with scripts/lib.sh). */
export const CACHE_DIR =
  process.env.IM_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'im-platform');

/** Finds an executable on PATH, in the sbin folders Debian uses, or in the cache. */
export function findBinary(name: string): string | undefined {
  const dirs = [
    ...(process.env.PATH ?? '').split(delimiter),
    '/usr/sbin',
    '/usr/local/sbin',
    '/usr/bin',
    join(CACHE_DIR, 'bin'),
  ];
  for (const dir of dirs) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

export function requireBinary(name: string, hint = 'run: bash scripts/setup.sh test'): string {
  const found = findBinary(name);
  if (!found) throw new Error(`${name} not found on PATH or in ${join(CACHE_DIR, 'bin')} (${hint})`);
  return found;
}

/** The compiled mongo-java-server launcher and its jars, newest cached version. */
export function mongoJavaServerClasspath(): string | undefined {
  const root = join(CACHE_DIR, 'mongo-java-server');
  if (!existsSync(root)) return undefined;
  const version = process.env.IM_MONGO_JAVA_SERVER_VERSION ?? readdirSync(root).sort().at(-1);
  if (!version) return undefined;
  const dir = join(root, version);
  if (!existsSync(join(dir, 'classes', 'MongoDevServer.class'))) return undefined;
  return `${join(dir, 'classes')}:${join(dir, 'lib', '*')}`;
}
