// What the tests of the single instance's own data (the embedded database,
// backup and restore, migration) share: a node started, stopped and started
// again on one DATA_DIR, the data tools run as an operator runs them, and a
// small HTTP client.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { spawnNode, START, waitReady, type SpawnedNode } from './spawn-node.ts';

const LISTENING = /gateway listening on (http:\/\/[0-9.]+:\d+)/;
const DATA_TOOL = fileURLToPath(new URL('../src/data/cli.ts', import.meta.url));
const run = promisify(execFile);

/** One request; the status and the parsed body, whatever the status. */
export async function call<T>(base: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** The password of the users these tests register. */
export const PASSWORD = 'correct horse battery';

/** Registers `username` and makes a group it owns: its token, the group's id and its first panel's converse. */
export async function ownerWithGroup(base: string, username: string, groupName: string) {
  const owner = await call<{ token: string }>(base, 'POST', '/api/auth/register', undefined, {
    username,
    password: PASSWORD,
  });
  const group = await call<{ id: string; panels: Array<{ converseId: string }> }>(
    base,
    'POST',
    '/api/groups',
    owner.body.token,
    { name: groupName },
  );
  return { token: owner.body.token, groupId: group.body.id, converseId: group.body.panels[0]!.converseId };
}

/** What every such test runs with: files on local disk (not the test run's MinIO), no rate limits. */
const TEST_SETTINGS = { STORAGE: 'local', RATE_LIMIT: 'off', NODE_ENV: 'test' };

/** `npm start` as its own process with `settings()` over TEST_SETTINGS, one at a time. */
export class SingleInstance {
  node: SpawnedNode | undefined;
  readonly #settings: () => Record<string, string>;

  constructor(settings: () => Record<string, string>) {
    this.#settings = () => ({ ...TEST_SETTINGS, ...settings() });
  }

  /** Starts it and answers its base URL once /ready says so. */
  async start(extra: Record<string, string> = {}): Promise<string> {
    this.node = spawnNode(START, { PORT: '0', ...this.#settings(), ...extra });
    const base = await this.node.waitFor(LISTENING, 90_000);
    await waitReady(base);
    return base;
  }

  /** SIGTERM, and it exits 0. */
  async stop(): Promise<void> {
    this.node!.child.kill('SIGTERM');
    assert.equal(await this.node!.exited, 0);
    this.node = undefined;
  }

  /** For after(): gone, however the test ended. */
  kill(): void {
    this.node?.child.kill('SIGKILL');
  }

  /** `npm run backup|restore|migrate` with the same settings (and no MONGO_URL, storage or DATA_DIR of the test run's). */
  dataTool(...args: string[]) {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(MONGO_URL|DATA_DIR|MINIO_URL|STORAGE)$/.test(k)),
    );
    return run(process.execPath, [DATA_TOOL, ...args], { env: { ...clean, ...this.#settings() } });
  }
}
