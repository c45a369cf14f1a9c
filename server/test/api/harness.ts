import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { apiPath, createApiClient, fetchTransport, type ApiClient, type ResponseOf } from '@im/api-client';
import { createLogger, parseConfig, type AppConfig } from '@im/sdk';
import { openTestEnv, type TestEnv } from '@im/testkit';
import type { BrokerOptions, ServiceBroker } from 'moleculer';
import { startNode, type RunningNode } from '../../src/node.ts';
import type { ClientSocket } from '../realtime/client.ts';

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** A single-instance node on a free port, on the test file's own database, plus a small HTTP client. */
export interface ApiHarness {
  env: TestEnv;
  node: RunningNode;
  broker: ServiceBroker;
  base: string;
  request<T = unknown>(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<ApiAnswer<T>>;
  /** The typed API client as `token` (none: signed out); a refusal throws ApiCallError. */
  client(token?: string): ApiClient;
  /** Registers a user with a unique name; returns its token and id. */
  user(prefix?: string): Promise<{ token: string; id: string; username: string }>;
  close(): Promise<void>;
}

let counter = 0;

export async function startApi(
  fileUrl: string,
  extra: Record<string, string> | ((env: TestEnv) => Record<string, string>) = {},
  /** Broker options over the node's (a test's own middlewares). */
  brokerOverrides?: Partial<BrokerOptions>,
): Promise<ApiHarness> {
  const env = await openTestEnv(fileUrl);
  const { node, base } = await startSingleNode(env, typeof extra === 'function' ? extra(env) : extra, brokerOverrides);

  const request: ApiHarness['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(base + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as never, headers: res.headers };
  };

  const client = (token?: string) => createApiClient(fetchTransport({ baseUrl: base, token: () => token }));

  return {
    env,
    node,
    broker: node.broker,
    base,
    request,
    client,
    user: async (prefix = 'u') => {
      counter += 1;
      const username = `${prefix}${process.pid}x${counter}`.toLowerCase().slice(0, 32);
      const res = await client().call('user.register', { username, password: 'correct horse battery' });
      return { token: res.token, id: res.user.id, username };
    },
    close: async () => {
      await node.stop();
      await env.close();
    },
  };
}

/**
 * The hooks of a describe block that needs an API and sockets: the API starts
 * before its tests; after them the sockets pushed onto `sockets` are closed,
 * then the API. `api` stands for the started harness from `before` on.
 */
export function apiWithSockets(
  fileUrl: string,
  extra?: Parameters<typeof startApi>[1],
  brokerOverrides?: Partial<BrokerOptions>,
): { api: ApiHarness; sockets: ClientSocket[] } {
  let started: ApiHarness | undefined;
  const sockets: ClientSocket[] = [];
  before(async () => {
    started = await startApi(fileUrl, extra, brokerOverrides);
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    await started?.close();
  });
  const current = () => {
    assert.ok(started, 'the API starts in before()');
    return started;
  };
  const api: ApiHarness = {
    get env() {
      return current().env;
    },
    get node() {
      return current().node;
    },
    get broker() {
      return current().broker;
    },
    get base() {
      return current().base;
    },
    request: <T>(method: string, path: string, options?: Parameters<ApiHarness['request']>[2]) =>
      current().request<T>(method, path, options),
    client: (token) => current().client(token),
    user: (prefix) => current().user(prefix),
    close: () => current().close(),
  };
  return { api, sockets };
}

/**
 * A node on the test file's database with the harness's settings and a free
 * port (startApi's, or one started again on the same data), and its address.
 */
export async function startSingleNode(
  env: TestEnv,
  extraEnv: Record<string, string>,
  brokerOverrides?: Partial<BrokerOptions>,
): Promise<{ node: RunningNode; base: string }> {
  const config: AppConfig = {
    ...parseConfig({
      NODE_ENV: 'test',
      PORT: '0',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      RATE_LIMIT: 'off',
      MONGO_URL: env.mongoUrl,
      // No LiveKit unless a test brings one (server/test/calls).
      VOICE: 'off',
      ...extraEnv,
    }),
    secret: 's'.repeat(40),
    secretSource: 'test-random',
  };
  const node = await startNode(config, createLogger(config), brokerOverrides);
  const gateway = node.broker.getLocalService('gateway') as unknown as { address(): AddressInfo };
  return { node, base: `http://127.0.0.1:${gateway.address().port}` };
}

/**
 * Reads until `done` holds of what was read, or `timeoutMs` passed; answers
 * the last reading either way, for the caller's assertions to judge.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}

/** A second node on the harness's database and NATS (the harness must run with TRANSPORTER). */
export async function startExtraNode(
  api: ApiHarness,
  env: Record<string, string>,
  brokerOverrides?: Partial<BrokerOptions>,
): Promise<RunningNode> {
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    RATE_LIMIT: 'off',
    MONGO_URL: api.env.mongoUrl,
    TRANSPORTER: api.env.natsUrl,
    NAMESPACE: api.env.namespace,
    VOICE: 'off',
    ...env,
  });
  return startNode(
    { ...config, secret: 's'.repeat(40), secretSource: 'test-random' },
    createLogger(config),
    brokerOverrides,
  );
}

/** startApi's extra env for a node on the test file's NATS namespace. */
export const overNats =
  (nodeId: string) =>
  (env: TestEnv): Record<string, string> => ({ TRANSPORTER: env.natsUrl, NAMESPACE: env.namespace, NODE_ID: nodeId });

type HarnessUser = { token: string };

/**
 * Test helpers over a harness: a request as `user` that must answer
 * `status` (its body), and one that must be refused with `status` and `code`.
 */
export function expectations(api: () => ApiHarness) {
  const ok = async <T>(method: string, path: string, user: HarnessUser, body?: unknown, status = 200): Promise<T> => {
    const res = await api().request<T>(method, path, { token: user.token, ...(body !== undefined ? { body } : {}) });
    assert.equal(res.status, status, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const refused = async (
    method: string,
    path: string,
    user: HarnessUser,
    status: number,
    code: string,
    body?: unknown,
  ): Promise<ApiErrorBody> => {
    const res = await api().request<ApiErrorBody>(method, path, {
      token: user.token,
      ...(body !== undefined ? { body } : {}),
    });
    assert.equal(res.status, status, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error.code, code);
    return res.body;
  };
  return { ok, refused };
}

export type ApiErrorBody = { error: { code: string; message: string; details?: { mutedUntil?: string } } };

// Groups, members and messages: server/test/support/conversations.ts (re-exported for the files that import them here).
export { groupWithMembers } from '../support/conversations.ts';

/** Uploads `bytes` as `name` (multipart, as the app does) and answers the stored file's view. */
export async function uploadAs(api: ApiHarness, token: string, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const res = await fetch(api.base + apiPath('file.register'), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  assert.equal(res.status, 201);
  return (await res.json()) as ResponseOf<'file.register'>;
}
