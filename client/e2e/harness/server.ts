import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServerProcess, type ServerProcess } from '@im/dev-servers';
import type { TestEnv } from '@im/testkit';

const START = fileURLToPath(new URL('../../../server/src/start.ts', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** UPDATE_SCREENSHOTS=1 refreshes the README's pictures; otherwise they go to a temporary folder. */
export const SHOTS = process.env.UPDATE_SCREENSHOTS
  ? fileURLToPath(new URL('../screenshots/', import.meta.url))
  : mkdtempSync(join(tmpdir(), 'im-e2e-shots-'));

/**
 * The single instance serving the built web client, on the test file's
 * database, with files on local disk in a fresh DATA_DIR; `extra` adds settings.
 */
export async function startWebApp(env: TestEnv, extra: Record<string, string> = {}): Promise<ServerProcess> {
  assert.ok(existsSync(join(DIST, 'index.html')), `no built client in ${DIST}: run 'bash scripts/setup.sh test'`);
  mkdirSync(SHOTS, { recursive: true });
  return startServerProcess(START, {
    MONGO_URL: env.mongoUrl,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'im-e2e-')),
    STORAGE: 'local',
    WEB_CLIENT_DIR: DIST,
    ...extra,
  });
}
