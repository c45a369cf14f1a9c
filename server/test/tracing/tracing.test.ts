import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Group, Message } from '@im/protocol';
import { SERVICE_NAMES, serviceNameOf } from '@im/sdk';
import { openTestEnv, type TestEnv } from '@im/testkit';
import { connectClient, record, sendOverSocket, until, type ClientSocket } from '../realtime/client.ts';
import { CLUSTER, freePortRun, spawnNode, START, waitReady, type SpawnedNode } from '../spawn-node.ts';
import { OtlpReceiver, type ReceivedSpan } from './otlp-receiver.ts';

const PROBE = `--import=${new URL('./otel-module-probe.ts', import.meta.url).href}`;
const OTEL_LOADED = 'opentelemetry module loaded';
const SEND_ROUTE = 'POST /api/converses/:converseId/messages';
/** The node of `npm run cluster` that runs chat (with user and group). */
const CHAT_NODE = 'im-user-group-chat';
/** The other service node of `npm run cluster`. */
const SERVICES_NODE = 'im-file-push-moderation-integration-mail-call-import';
const KIND = { server: 2, client: 3 } as const;

/** Registers a user, opens a group (its owner joins it), and sends into it over HTTP. */
async function signUpAndSend(base: string, name: string): Promise<{ token: string; converseId: string }> {
  const post = async <T>(path: string, body: unknown, token?: string): Promise<T> => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    assert.ok(res.status < 300, `${path}: ${res.status} ${await res.clone().text()}`);
    return (await res.json()) as T;
  };
  const { token } = await post<{ token: string }>('/api/auth/register', {
    username: `${name}${process.pid}`,
    password: 'correct horse battery',
  });
  const group = await post<Group>('/api/groups', { name: 'Traced' }, token);
  return { token, converseId: group.panels[0]!.converseId };
}

async function send(base: string, token: string, converseId: string, content: string): Promise<Message> {
  const res = await fetch(`${base}/api/converses/${converseId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ content, clientMsgId: `k-${content}` }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as Message;
}

/** The span's ancestors up to the root, nearest first (stops where a parent is missing). */
function ancestors(span: ReceivedSpan, byId: Map<string, ReceivedSpan>): ReceivedSpan[] {
  const chain: ReceivedSpan[] = [];
  for (let at = byId.get(span.parentSpanId); at; at = byId.get(at.parentSpanId)) chain.push(at);
  return chain;
}

let env: TestEnv;
before(async () => {
  env = await openTestEnv(import.meta.url);
});
after(async () => {
  await env?.close();
});

describe('tracing across nodes (OTEL_EXPORTER_OTLP_ENDPOINT, OTLP/HTTP JSON)', () => {
  let receiver: OtlpReceiver;
  let cluster: SpawnedNode;
  let base: string;
  const sockets: ClientSocket[] = [];

  before(async () => {
    receiver = await OtlpReceiver.start();
    const port = await freePortRun(1);
    base = `http://127.0.0.1:${port}`;
    // One gateway node and two service nodes over NATS, each its own process.
    cluster = spawnNode(
      CLUSTER,
      {
        PORT: String(port),
        MONGO_URL: env.mongoUrl,
        NODE_ENV: 'development',
        SECRET: 't'.repeat(40),
        VOICE: 'off',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        // Spans leave each node a tenth of a second after they end, so the trace comes together soon.
        OTEL_BSP_SCHEDULE_DELAY: '100',
        NODE_OPTIONS: PROBE,
      },
      ['--gateways', '1'],
    );
    await cluster.waitFor(/cluster ready/, 120_000);
  });
  after(async () => {
    for (const socket of sockets) socket.disconnect();
    cluster?.child.kill('SIGTERM');
    await cluster?.exited;
    await receiver?.close();
  });

  it('names each node after its services', () => {
    assert.equal(serviceNameOf(['gateway']), 'im-gateway');
    assert.equal(serviceNameOf(['chat']), 'im-chat');
    assert.equal(serviceNameOf(['user', 'group', 'chat']), CHAT_NODE);
    assert.equal(serviceNameOf(SERVICE_NAMES), 'im-platform');
    assert.equal(serviceNameOf(['chat'], 'chat-eu-1'), 'chat-eu-1');
  });

  it('makes one trace of an HTTP send: gateway, broker call to the chat node, MongoDB, Redis, socket emit', async () => {
    const { token, converseId } = await signUpAndSend(base, 'tracer');
    const socket = await connectClient(base, token);
    sockets.push(socket);
    const heard = record(socket, 'message:new');
    const sent = await send(base, token, converseId, 'hello-traced');
    await until('the socket hears the message', () => heard.some((m) => m.id === sent.id), 15_000);

    // Wait until the send's trace is whole: the expected spans are in and every span's parent is too.
    let trace: ReceivedSpan[] = [];
    let byId = new Map<string, ReceivedSpan>();
    const whole = () => {
      const http = receiver.spans.find(
        (s) => s.service === 'im-gateway' && s.kind === KIND.server && s.name === SEND_ROUTE,
      );
      if (!http) return false;
      trace = receiver.spans.filter((s) => s.traceId === http.traceId);
      byId = new Map(trace.map((s) => [s.spanId, s]));
      const expected = [
        (s: ReceivedSpan) => s.service === CHAT_NODE && s.kind === KIND.server && s.name === 'chat.send',
        (s: ReceivedSpan) => s.service === CHAT_NODE && s.attributes['db.system.name'] === 'mongodb',
        (s: ReceivedSpan) => s.service === CHAT_NODE && s.attributes['db.system.name'] === 'redis',
        (s: ReceivedSpan) => s.service === 'im-gateway' && s.name === 'socket.io emit chat.message.created',
        // The broker event of the write, heard by the other service node (push, mail, ...).
        (s: ReceivedSpan) => s.service === SERVICES_NODE && s.name === 'receive chat.message.created',
      ];
      return expected.every((is) => trace.some(is)) && trace.every((s) => s === http || byId.has(s.parentSpanId));
    };
    await until('the whole trace of the send at the receiver', whole, 60_000).catch((err: unknown) => {
      const seen = trace.map((s) => `${s.service} ${s.kind} ${s.name} ${s.spanId}<-${s.parentSpanId}`);
      throw new Error(`${(err as Error).message}; spans of the trace so far:\n${seen.join('\n')}`);
    });

    const roots = trace.filter((s) => !s.parentSpanId);
    assert.equal(roots.length, 1, 'one root');
    const http = roots[0]!;
    assert.equal(http.service, 'im-gateway');
    assert.equal(http.name, SEND_ROUTE);
    assert.equal(http.attributes['http.response.status_code'], 201);
    assert.equal(http.attributes['http.route'], '/api/converses/:converseId/messages');

    // The broker call: a client span on the gateway, the action's server span under it on the chat node.
    const callee = trace.find((s) => s.service === CHAT_NODE && s.kind === KIND.server && s.name === 'chat.send')!;
    const caller = byId.get(callee.parentSpanId)!;
    assert.equal(caller.service, 'im-gateway');
    assert.equal(caller.kind, KIND.client);
    assert.equal(caller.name, 'chat.send');
    assert.ok(ancestors(caller, byId).includes(http), 'the call is made inside the HTTP request');

    // MongoDB and Redis commands of the chat node hang under the action.
    for (const system of ['mongodb', 'redis']) {
      const commands = trace.filter((s) => s.attributes['db.system.name'] === system);
      assert.ok(commands.length > 0, `${system} spans`);
      const onChatNode = commands.filter((s) => s.service === CHAT_NODE);
      assert.ok(onChatNode.length > 0, `${system} spans on ${CHAT_NODE}`);
      for (const command of onChatNode)
        assert.ok(ancestors(command, byId).includes(callee), `${command.name} under chat.send`);
    }
    const insert = trace.find((s) => s.service === CHAT_NODE && s.attributes['db.operation.name'] === 'insert');
    assert.ok(insert, 'the message insert is in the trace');

    const heardElsewhere = trace.find((s) => s.service === SERVICES_NODE && s.name === 'receive chat.message.created')!;
    assert.equal(heardElsewhere.kind, 5);
    assert.ok(ancestors(heardElsewhere, byId).includes(callee), 'the event descends from the chat action');

    // The socket emit on the gateway belongs to the same tree, reached from the chat node's action.
    const emit = trace.find((s) => s.name === 'socket.io emit chat.message.created')!;
    assert.equal(emit.service, 'im-gateway');
    assert.ok(ancestors(emit, byId).includes(callee), 'the emit descends from the chat action');

    // A send over the socket is a trace of its own, reaching the chat node the same way.
    const overSocket = await sendOverSocket(socket, converseId, 'hello-over-socket', 'k-socket');
    await until('the socket hears its own message', () => heard.some((m) => m.id === overSocket.id), 15_000);
    await until(
      'the trace of the socket send at the receiver',
      () => {
        const root = receiver.spans.find((s) => s.service === 'im-gateway' && s.name === 'socket.io message:send');
        return (
          root !== undefined &&
          receiver.spans.some(
            (s) =>
              s.traceId === root.traceId && s.service === CHAT_NODE && s.kind === KIND.server && s.name === 'chat.send',
          )
        );
      },
      60_000,
    );

    // Traces start only at requests: no root span from timers, sweeps or start-up work, none from probes.
    const traceRoots = receiver.spans.filter((s) => !s.parentSpanId).map((s) => `${s.kind} ${s.name}`);
    assert.ok(traceRoots.length > 0);
    for (const root of traceRoots) assert.match(root, /^2 ((GET|POST|PUT|PATCH|DELETE) \/api\/|socket\.io )/);
    // (npm run cluster polled every gateway's /ready until it answered 200.)
    assert.ok(!receiver.spans.some((s) => s.name === 'GET /ready' || s.name === 'GET /health'));

    // What the probe sees when tracing is on (the check of the test below would see it too).
    assert.match(cluster.stdout(), new RegExp(`\\[gateway-1\\] ${OTEL_LOADED}: .*/@opentelemetry/sdk-trace/`));
  });
});

describe('tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let node: SpawnedNode;

  after(async () => {
    node?.child.kill('SIGTERM');
    await node?.exited;
  });

  it('loads no OpenTelemetry SDK module, even through a send and its socket emit', async () => {
    const port = await freePortRun(1);
    const base = `http://127.0.0.1:${port}`;
    // The other OpenTelemetry variables alone do not turn it on.
    node = spawnNode(START, {
      PORT: String(port),
      MONGO_URL: env.mongoUrl,
      VOICE: 'off',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'untraced',
      NODE_OPTIONS: PROBE,
    });
    await node.waitFor(/gateway listening/);
    await waitReady(base);
    const { token, converseId } = await signUpAndSend(base, 'untraced');
    const socket = await connectClient(base, token);
    try {
      const heard = record(socket, 'message:new');
      const sent = await send(base, token, converseId, 'hello-untraced');
      await until('the socket hears the message', () => heard.some((m) => m.id === sent.id), 15_000);
    } finally {
      socket.disconnect();
    }
    const started = (node.stdout() + node.stderr()).split('\n').find((l) => l.includes('"node started"'));
    assert.ok(started, 'node started');
    assert.ok(!started.includes('"tracing"'), started);
    assert.ok(!(node.stdout() + node.stderr()).includes(OTEL_LOADED), node.stderr());
  });
});

describe('tracing on a single instance with the default encoding', () => {
  let receiver: OtlpReceiver;
  let node: SpawnedNode;

  before(async () => {
    receiver = await OtlpReceiver.start();
  });
  after(async () => {
    node?.child.kill('SIGTERM');
    await node?.exited;
    await receiver?.close();
  });

  it('is im-platform and sends its spans as OTLP/HTTP protobuf', async () => {
    const port = await freePortRun(1);
    const base = `http://127.0.0.1:${port}`;
    node = spawnNode(START, {
      PORT: String(port),
      MONGO_URL: env.mongoUrl,
      VOICE: 'off',
      OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.endpoint}/`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    await node.waitFor(/gateway listening/);
    await waitReady(base);
    const { token, converseId } = await signUpAndSend(base, 'protobuf');
    await send(base, token, converseId, 'hello-protobuf');
    await until('an export at the receiver', () => receiver.contentTypes.length > 0, 60_000);
    assert.equal(receiver.contentTypes[0], 'application/x-protobuf');
    const started = node
      .stdout()
      .split('\n')
      .find((l) => l.includes('"node started"'));
    assert.ok(started?.includes('"tracing":"im-platform"'), started);
  });
});
