import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseHostList, parseTrustProxy } from '../net/address-lists.ts';
import { parseHostPortList } from '../net/host-port-list.ts';
import { parseRateLimitOverrides, RATE_LIMIT_NAMES } from '../rate-limit/policy.ts';
import { SERVICE_NAMES, type ServiceName } from '../services.ts';

/**
 * One entry per environment variable: the single source for parsing,
 * defaults, the printed effective config and the README table.
 */
export interface ConfigEntry<T> {
  env: string;
  /** Human-readable type, shown in the README table. */
  type: string;
  description: string;
  /** Default as the user would write it in the environment; undefined = optional or required. */
  default?: string;
  /** Shown in the README instead of `default` when the default depends on where the checkout is. */
  shownDefault?: string;
  /** An empty value is a value of its own (it turns something off) instead of meaning the default. */
  keepEmpty?: boolean;
  /** Masked when printed. */
  secret?: boolean;
  parse: z.ZodType<T>;
}

const entry = <T>(e: ConfigEntry<T>): ConfigEntry<T> => e;

/** The web client's build output in this checkout (client/dist at the repository root). */
export const DEFAULT_WEB_CLIENT_DIR = fileURLToPath(new URL('../../../../client/dist', import.meta.url));

/** A string parsed by `parse`, whose thrown message becomes the validation error. */
const parsedBy = <T>(parse: (text: string) => T) =>
  z.string().transform((text, ctx) => {
    try {
      return parse(text);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  });

/** The port Redis Sentinel listens on unless told otherwise. */
const REDIS_SENTINEL_PORT = 26379;

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const optionalUrl = (schemes: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine(
      (v) => v === undefined || schemes.some((s) => v.startsWith(`${s}://`)),
      `must start with ${schemes.map((s) => `${s}://`).join(' or ')}`,
    );

/** Comma-separated URLs of one cluster (each with a scheme), normalised to `a,b,c`. */
const optionalUrlList = (schemes: string[]) =>
  optionalUrl(schemes)
    .transform((v) =>
      v
        ?.split(',')
        .map((part) => part.trim())
        .join(','),
    )
    .refine(
      (v) =>
        v === undefined ||
        v.split(',').every((part) => schemes.some((s) => part.startsWith(`${s}://`)) && URL.canParse(part)),
      `must be one URL or a comma-separated list, each starting with ${schemes.map((s) => `${s}://`).join(' or ')}`,
    );

export const configSchema = {
  nodeEnv: entry({
    env: 'NODE_ENV',
    type: 'development | test | production',
    description: 'Run mode. Outside development and test, SECRET is required and logs are JSON.',
    default: 'development',
    parse: z.enum(['development', 'test', 'production']),
  }),
  host: entry({
    env: 'HOST',
    type: 'address',
    description: 'Address the HTTP/socket.io gateway listens on.',
    default: '127.0.0.1',
    parse: z.string().trim().min(1),
  }),
  port: entry({
    env: 'PORT',
    type: 'port',
    description:
      'Port the gateway listens on (0 picks a free one). The gateways of the local cluster use PORT .. PORT+N-1 (npm run cluster -- --gateways N, default 2).',
    default: '3000',
    parse: port,
  }),
  healthPort: entry({
    env: 'HEALTH_PORT',
    type: 'port',
    description:
      'Port a node without the gateway answers /health and /ready on (probes for service nodes; 0 picks a free one). Unset: such a node serves no HTTP. Gateways answer both on PORT.',
    parse: port.optional(),
  }),
  secret: entry({
    env: 'SECRET',
    type: 'string (>= 32 chars)',
    description:
      'Key that signs access tokens. Required in production; in development a random one is kept in DATA_DIR/.dev-secret, in test one is made per process.',
    secret: true,
    parse: z.string().min(32, 'must be at least 32 characters').optional(),
  }),
  mongoUrl: entry({
    env: 'MONGO_URL',
    type: 'mongodb:// URL',
    description:
      'MongoDB to use. Unset: the single instance starts a local one (mongod on PATH with DATA_DIR/db, else the embedded database that DEV_DATABASE names).',
    parse: optionalUrl(['mongodb', 'mongodb+srv']),
  }),
  devDatabase: entry({
    env: 'DEV_DATABASE',
    type: 'file | memory',
    description:
      'The embedded MongoDB-compatible database the single instance starts without MONGO_URL and mongod: file keeps the data in DATA_DIR/im.mv.db (mongo-java-server with H2; survives restarts and crashes), memory loses it on exit (tests, throwaway trials).',
    default: 'file',
    parse: z.enum(['file', 'memory']),
  }),
  mongoConnectTimeoutMs: entry({
    env: 'MONGO_CONNECT_TIMEOUT_MS',
    type: 'milliseconds',
    description: 'How long to wait for MongoDB at start before giving up.',
    default: '10000',
    parse: positiveInt,
  }),
  redisUrl: entry({
    env: 'REDIS_URL',
    type: 'redis:// URL',
    description:
      'Redis for shared state (presence, caches, rate limits). Unset: in-process state (single instance only).',
    parse: optionalUrl(['redis', 'rediss']),
  }),
  redisSentinels: entry({
    env: 'REDIS_SENTINELS',
    type: 'comma list of host:port',
    description:
      'Redis Sentinels to ask for the master (port 26379 when left out). Set: every Redis connection goes to the master the sentinels name and follows it through a failover; REDIS_URL then gives only the password, database and TLS (rediss://) of the master and its replicas, not the host (write the group, e.g. redis://:secret@mymaster/0). Unset: REDIS_URL names the one Redis.',
    parse: z
      .string()
      .optional()
      .transform((text, ctx) => {
        if (text === undefined || text.trim() === '') return undefined;
        try {
          return parseHostPortList(text, REDIS_SENTINEL_PORT);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: `must be a comma list of host:port: ${(err as Error).message}` });
          return z.NEVER;
        }
      }),
  }),
  redisSentinelName: entry({
    env: 'REDIS_SENTINEL_NAME',
    type: 'string',
    description: 'The master group the sentinels watch (the name in their `sentinel monitor` line).',
    default: 'mymaster',
    parse: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, ., _ and - only'),
  }),
  redisSentinelPassword: entry({
    env: 'REDIS_SENTINEL_PASSWORD',
    type: 'string',
    description:
      "Password of the sentinels themselves (their requirepass), when they have one; the master's is in REDIS_URL.",
    secret: true,
    parse: z
      .string()
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
  }),
  redisKeyPrefix: entry({
    env: 'REDIS_KEY_PREFIX',
    type: 'string',
    description: 'Prefix of every Redis key the platform writes, so deployments can share a Redis.',
    default: 'im:',
    parse: z.string().max(64),
  }),
  transporter: entry({
    env: 'TRANSPORTER',
    type: 'nats:// URL list',
    description:
      'Broker transporter. Unset: single instance, every call is local. nats://host:port: cluster. Several servers of one NATS cluster: comma-separated (nats://a:4222,nats://b:4222); a node fails over between them.',
    parse: optionalUrlList(['nats']),
  }),
  namespace: entry({
    env: 'NAMESPACE',
    type: 'string',
    description: 'Broker namespace: nodes only see nodes of the same namespace on a shared NATS.',
    default: '',
    parse: z.string().regex(/^[a-zA-Z0-9_-]*$/, 'letters, digits, _ and - only'),
  }),
  nodeId: entry({
    env: 'NODE_ID',
    type: 'string',
    description: 'Broker node id. Unset: hostname plus process id.',
    parse: z
      .string()
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
  }),
  services: entry({
    env: 'SERVICES',
    type: 'comma list',
    description: `Services this process runs: any of ${SERVICE_NAMES.join(', ')}, or "all".`,
    default: 'all',
    parse: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(
        z
          .array(z.enum([...SERVICE_NAMES, 'all']))
          .min(1, 'name at least one service')
          .transform((names): ServiceName[] =>
            names.includes('all') ? [...SERVICE_NAMES] : [...new Set(names as ServiceName[])],
          ),
      ),
  }),
  dataDir: entry({
    env: 'DATA_DIR',
    type: 'path',
    description:
      'Directory for local data (the embedded database or mongod files, uploaded files, the development secret).',
    default: './data',
    parse: z.string().min(1),
  }),
  webClientDir: entry({
    env: 'WEB_CLIENT_DIR',
    type: 'path',
    description:
      'Built web client the gateway serves at / (npm run build -w @im/client writes it; relative paths are taken from the current directory). Empty: the gateway serves the API only.',
    default: DEFAULT_WEB_CLIENT_DIR,
    shownDefault: '<checkout>/client/dist',
    keepEmpty: true,
    parse: z
      .string()
      .trim()
      .transform((v) => (v === '' ? '' : resolve(v))),
  }),
  publicUrl: entry({
    env: 'PUBLIC_URL',
    type: 'URL',
    description:
      "Address people reach this server at (http(s)://host[:port], no path), used in web-public pages' canonical and OpenGraph links and in feeds. Unset: http://localhost:PORT.",
    parse: optionalUrl(['http', 'https']).transform((v) => v?.replace(/\/+$/, '')),
  }),
  logLevel: entry({
    env: 'LOG_LEVEL',
    type: 'fatal | error | warn | info | debug | trace',
    description: 'Least severe level that is logged.',
    default: 'info',
    parse: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']),
  }),
  logFormat: entry({
    env: 'LOG_FORMAT',
    type: 'json | pretty',
    description: 'Log output. Unset: pretty in development, JSON otherwise.',
    parse: z.enum(['json', 'pretty']).optional(),
  }),
  tokenTtl: entry({
    env: 'TOKEN_TTL',
    type: 'duration (30m, 12h, 7d)',
    description: 'How long an access token stays valid.',
    default: '7d',
    parse: z
      .string()
      .regex(/^\d+[smhd]$/, 'must be a number followed by s, m, h or d')
      .transform(
        (v) => Number(v.slice(0, -1)) * { s: 1, m: 60, h: 3600, d: 86400 }[v.slice(-1) as 's' | 'm' | 'h' | 'd'],
      )
      .refine((seconds) => seconds >= 60, 'must be at least 60 seconds'),
  }),
  passwordHashMemoryKib: entry({
    env: 'PASSWORD_HASH_MEMORY_KIB',
    type: 'integer (KiB)',
    description:
      'Memory cost of argon2id password hashing (2 passes). Below the OWASP baseline of 19456 only outside production: benchmarks that register thousands of accounts lower it.',
    default: '19456',
    parse: z.coerce.number().int().min(1024).max(1_048_576),
  }),
  rateLimit: entry({
    env: 'RATE_LIMIT',
    type: 'on | off',
    description: 'Every rate limit (the table in docs/operations.md). off is for load tests only.',
    default: 'on',
    parse: z.enum(['on', 'off']),
  }),
  rateLimits: entry({
    env: 'RATE_LIMITS',
    type: 'name=points/seconds, ...',
    description:
      'Overrides of the default rate limits, e.g. send=100/10,upload=120/60 (names: ' +
      RATE_LIMIT_NAMES.join(', ') +
      ').',
    default: '',
    parse: parsedBy(parseRateLimitOverrides),
  }),
  bodyLimitBytes: entry({
    env: 'BODY_LIMIT_BYTES',
    type: 'bytes',
    description: 'Largest JSON request body the gateway accepts (413 beyond).',
    default: '1048576',
    parse: positiveInt,
  }),
  trustProxy: entry({
    env: 'TRUST_PROXY',
    type: 'false | hop count | CIDR list',
    description:
      'Proxies in front of the gateway whose X-Forwarded-For is believed: false (none; the socket address is the client), a number of hops (nginx of docker-compose: 1), or a comma list of proxy CIDRs. The client is the right-most entry that is not a trusted proxy.',
    default: 'false',
    parse: parsedBy(parseTrustProxy),
  }),
  outboundAllow: entry({
    env: 'OUTBOUND_ALLOW',
    type: 'comma list of hosts, IPs, CIDRs',
    description:
      'Private destinations the server may still send requests to on behalf of users (an internal push proxy; loopback in tests), for every purpose without a list of its own (OUTBOUND_ALLOW_PUSH, _WEBHOOKS, _PREVIEWS) and for the single sign-on provider. Empty: only public addresses.',
    default: '',
    parse: parsedBy(parseHostList),
  }),
  outboundAllowPush: entry({
    env: 'OUTBOUND_ALLOW_PUSH',
    type: 'comma list of hosts, IPs, CIDRs',
    description:
      'Private destinations Web Push and the push proxy may reach. Unset: OUTBOUND_ALLOW; set (even empty), it replaces OUTBOUND_ALLOW for push.',
    keepEmpty: true,
    parse: parsedBy(parseHostList).optional(),
  }),
  outboundAllowWebhooks: entry({
    env: 'OUTBOUND_ALLOW_WEBHOOKS',
    type: 'comma list of hosts, IPs, CIDRs',
    description:
      'Private destinations outgoing webhooks and slash commands may reach. Unset: OUTBOUND_ALLOW; set (even empty), it replaces OUTBOUND_ALLOW for them.',
    keepEmpty: true,
    parse: parsedBy(parseHostList).optional(),
  }),
  outboundAllowPreviews: entry({
    env: 'OUTBOUND_ALLOW_PREVIEWS',
    type: 'comma list of hosts, IPs, CIDRs',
    description:
      'Private destinations link previews may fetch pages and images from. Unset: OUTBOUND_ALLOW; set (even empty), it replaces OUTBOUND_ALLOW for previews.',
    keepEmpty: true,
    parse: parsedBy(parseHostList).optional(),
  }),
  outboundTimeoutMs: entry({
    env: 'OUTBOUND_TIMEOUT_MS',
    type: 'milliseconds',
    description: 'Longest an outbound request (Web Push, push proxy, webhooks) may take, connect to last byte.',
    default: '10000',
    parse: positiveInt,
  }),
  adminUsernames: entry({
    env: 'ADMIN_USERNAMES',
    type: 'comma list of usernames',
    description:
      'Server administrators: the accounts of these names get the stored server-admin flag when the server starts and when they register (they may always register); names left out lose it at the next start. They see /api/admin (users, deactivation, registration mode, the audit log, DM reports).',
    default: '',
    parse: z.string().transform((text) => [
      ...new Set(
        text
          .split(',')
          .map((n) => n.trim().toLowerCase())
          .filter(Boolean),
      ),
    ]),
  }),
  registration: entry({
    env: 'REGISTRATION',
    type: 'open | invite | closed',
    description:
      "Who may register: anyone; only with a valid group invite (inviteCode, and the account joins that group); nobody but the server admins. A server admin's choice in the admin console, once made, wins over this.",
    default: 'open',
    parse: z.enum(['open', 'invite', 'closed']),
  }),
  oidcIssuer: entry({
    env: 'OIDC_ISSUER',
    type: 'http(s) URL',
    description:
      'OpenID Connect provider for single sign-on (its issuer identifier; discovery at /.well-known/openid-configuration). Set with OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or none of the three. Its requests go through the outbound guard: a provider on a private address needs OUTBOUND_ALLOW.',
    // Kept as written: the provider's metadata must name exactly this issuer.
    parse: optionalUrl(['https', 'http']).refine((v) => v === undefined || URL.canParse(v), 'must be a URL'),
  }),
  oidcClientId: entry({
    env: 'OIDC_CLIENT_ID',
    type: 'string',
    description: 'Client id this server is registered with at the OIDC provider.',
    parse: z
      .string()
      .trim()
      .max(256)
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
  }),
  oidcClientSecret: entry({
    env: 'OIDC_CLIENT_SECRET',
    type: 'string',
    description: 'Client secret the OIDC provider issued for that client.',
    secret: true,
    parse: z
      .string()
      .max(1024)
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
  }),
  oidcButtonLabel: entry({
    env: 'OIDC_BUTTON_LABEL',
    type: 'string',
    description: 'Text of the single sign-on button on the login screen.',
    default: 'Sign in with SSO',
    parse: z.string().trim().min(1, 'must not be empty').max(64),
  }),
  oidcCreateAccounts: entry({
    env: 'OIDC_CREATE_ACCOUNTS',
    type: 'true | false',
    description:
      'true: a first single sign-on creates an account (whatever REGISTRATION says: the provider decides who gets in); false: only accounts linked in their settings may sign in with it.',
    default: 'true',
    parse: z.enum(['true', 'false']).transform((v) => v === 'true'),
  }),
  metricsToken: entry({
    env: 'METRICS_TOKEN',
    type: 'string (>= 16 chars)',
    description:
      '/metrics and the detailed /ready answer requests with "Authorization: Bearer METRICS_TOKEN". Unset: only direct loopback connections get them.',
    secret: true,
    parse: z
      .string()
      .optional()
      .transform((v) => (v === '' ? undefined : v))
      .refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
  }),
  otelExporterOtlpEndpoint: entry({
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    type: 'http(s):// URL',
    description:
      'OpenTelemetry collector (OTLP over HTTP, e.g. Jaeger or Grafana Tempo on port 4318): set, every node sends its spans to ENDPOINT/v1/traces (docs/operations.md, Tracing). Unset: no tracing, and no module of the OpenTelemetry SDK is loaded.',
    parse: optionalUrl(['http', 'https']),
  }),
  otelExporterOtlpProtocol: entry({
    env: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    type: 'http/protobuf | http/json',
    description: 'How spans are encoded for OTEL_EXPORTER_OTLP_ENDPOINT (gRPC is not offered).',
    default: 'http/protobuf',
    parse: z.enum(['http/protobuf', 'http/json']),
  }),
  otelServiceName: entry({
    env: 'OTEL_SERVICE_NAME',
    type: 'string',
    description:
      "The service.name this node's spans carry. Unset: from SERVICES (im-gateway, im-chat, im-user-group-chat for several, im-platform for all).",
    parse: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
  }),
  otelTracesSampler: entry({
    env: 'OTEL_TRACES_SAMPLER',
    type: 'always_on | always_off | traceidratio | parentbased_always_on | parentbased_always_off | parentbased_traceidratio',
    description:
      'Which traces are kept (the OpenTelemetry names). The parentbased ones follow the decision of the caller that sent a traceparent header.',
    default: 'parentbased_always_on',
    parse: z.enum([
      'always_on',
      'always_off',
      'traceidratio',
      'parentbased_always_on',
      'parentbased_always_off',
      'parentbased_traceidratio',
    ]),
  }),
  otelTracesSamplerArg: entry({
    env: 'OTEL_TRACES_SAMPLER_ARG',
    type: 'ratio 0..1',
    description: 'The share of traces kept by the traceidratio samplers.',
    default: '1',
    parse: z.coerce.number().min(0).max(1),
  }),
  otelBspScheduleDelay: entry({
    env: 'OTEL_BSP_SCHEDULE_DELAY',
    type: 'milliseconds',
    description: 'Longest time finished spans wait in memory before they are sent in one batch.',
    default: '5000',
    parse: z.coerce.number().int().min(0).max(600_000),
  }),
  chatWriteWindowMs: entry({
    env: 'CHAT_WRITE_WINDOW_MS',
    type: 'milliseconds',
    description:
      'How long a message that finds the writer idle waits for others to be written with it in one batch (group commit); 0: none, it is written with those of the same event-loop turn. Messages arriving while a batch is written always form the next batch.',
    default: '0',
    parse: z.coerce.number().int().min(0).max(1000),
  }),
  chatWriteMaxBatch: entry({
    env: 'CHAT_WRITE_MAX_BATCH',
    type: 'count',
    description: 'Most messages written in one batch; 1 turns batching off.',
    default: '500',
    parse: z.coerce.number().int().min(1).max(10_000),
  }),
  chatSeqRepairSec: entry({
    env: 'CHAT_SEQ_REPAIR_SEC',
    type: 'seconds',
    description:
      'In a cluster, how long a reserved sequence number may stay without its message (its chat node died between reserving and writing) before a chat node fills it with a tombstone; each chat node checks the converses written to since its last check this often.',
    default: '30',
    parse: z.coerce.number().int().min(1).max(3600),
  }),
  schedulePollMs: entry({
    env: 'SCHEDULE_POLL_MS',
    type: 'milliseconds',
    description:
      "How often each chat node looks for due scheduled messages and reminders that it was not told of (another node's, or kept across a restart); between looks it wakes at the nearest due time it knows.",
    default: '5000',
    parse: z.coerce.number().int().min(100).max(60_000),
  }),
  importAnnouncePollMs: entry({
    env: 'IMPORT_ANNOUNCE_POLL_MS',
    type: 'milliseconds',
    description:
      'How often an import node looks for finished command-line imports (`npm run import`) that the running platform has not taken in yet: their groups and DMs go into the room index and caches, and open apps show them.',
    default: '1000',
    parse: z.coerce.number().int().min(100).max(60_000),
  }),
  chatRecentMessages: entry({
    env: 'CHAT_RECENT_MESSAGES',
    type: 'count',
    description:
      "Messages each chat node keeps in memory from its converses' newest ends (up to 200 per converse), so opening a converse, the pages just above it and a reconnect's sync read no messages from the database; 0 turns it off.",
    default: '50000',
    parse: z.coerce.number().int().min(0).max(10_000_000),
  }),
  chatRecentBytes: entry({
    env: 'CHAT_RECENT_BYTES',
    type: 'bytes',
    description:
      'Memory the kept newest messages (CHAT_RECENT_MESSAGES) may take on each chat node, estimated per message from its text and parts; the least recently used converses leave first. A converse unused for 10 minutes leaves too.',
    default: '67108864',
    parse: positiveInt,
  }),
  socketMaxPayloadBytes: entry({
    env: 'SOCKET_MAX_PAYLOAD_BYTES',
    type: 'bytes',
    description: 'Largest socket.io message a client may send; bigger ones close its connection.',
    default: '65536',
    parse: positiveInt,
  }),
  socketMaxBufferBytes: entry({
    env: 'SOCKET_MAX_BUFFER_BYTES',
    type: 'bytes',
    description:
      'A client that lets this much unsent data pile up (too slow to read) is disconnected; it catches up with sync.',
    default: '4194304',
    parse: positiveInt,
  }),
  socketRoomLoads: entry({
    env: 'SOCKET_ROOM_LOADS',
    type: 'count',
    description:
      'Sockets whose rooms a gateway looks up at once (and catch-up syncs it forwards at once); more connecting at the same time (a reconnect storm) wait their turn, connected, and get what their converses send meanwhile once their rooms are loaded.',
    default: '256',
    parse: positiveInt,
  }),
  socketConnectBacklog: entry({
    env: 'SOCKET_CONNECT_BACKLOG',
    type: 'count',
    description:
      'Sockets that may wait for their rooms on one gateway; past it new handshakes are refused with IM_ERR_SERVICE_UNAVAILABLE and a random retryAfterMs of 1-5 s.',
    default: '20000',
    parse: positiveInt,
  }),
  socketsPerUser: entry({
    env: 'SOCKETS_PER_USER',
    type: 'count',
    description:
      "Most sockets one user may hold on one gateway; a new one past it closes that user's oldest (which is told why: socket:closing with IM_ERR_LIMIT).",
    default: '20',
    parse: positiveInt,
  }),
  socketSessionCheckSec: entry({
    env: 'SOCKET_SESSION_CHECK_SEC',
    type: 'seconds',
    description:
      "How often a gateway asks again whether its open sockets' sessions are live (in batches), so a revocation it missed still closes them; a socket also closes when its token expires.",
    default: '300',
    parse: positiveInt,
  }),
  socketWsEngine: entry({
    env: 'SOCKET_WS_ENGINE',
    type: 'ws | uws',
    description:
      "The gateway's WebSocket server under socket.io: ws (bundled), or uws: uWebSockets.js, which the operator installs (it is not on the npm registry; it needs glibc 2.38 or newer). A gateway told uws that cannot load it stops at start, naming the reason.",
    default: 'ws',
    parse: z.enum(['ws', 'uws']),
  }),
  presenceGroupLimit: entry({
    env: 'PRESENCE_GROUP_LIMIT',
    type: 'count',
    description: 'Presence changes are pushed to groups up to this many members; larger groups ask GET /api/presence.',
    default: '1000',
    parse: positiveInt,
  }),
  fanoutRouting: entry({
    env: 'FANOUT_ROUTING',
    type: 'rooms | broadcast',
    description:
      'How realtime events reach gateways in a cluster: rooms publishes each on a NATS subject per room it concerns, and a gateway hears only the rooms it holds sockets in; broadcast brings every event to every gateway. Set the same on every node. A single instance (no TRANSPORTER) calls locally either way.',
    default: 'rooms',
    parse: z.enum(['rooms', 'broadcast']),
  }),
  fanoutRoutingLingerMs: entry({
    env: 'FANOUT_ROUTING_LINGER_MS',
    type: 'milliseconds',
    description:
      'How long a gateway stays subscribed to a room after its last socket there left (FANOUT_ROUTING=rooms), so reconnects and page reloads do not churn subscriptions.',
    default: '30000',
    parse: z.coerce.number().int().min(0),
  }),
  roomIndex: entry({
    env: 'ROOM_INDEX',
    type: 'on | off',
    description:
      "The index of each user's groups, converses and DMs that a socket's connect reads its rooms from (memory on a single instance, Redis when REDIS_URL is set; rebuilt from MongoDB at start). off: every connect queries MongoDB.",
    default: 'on',
    parse: z.enum(['on', 'off']),
  }),
  storage: entry({
    env: 'STORAGE',
    type: 'local | s3',
    description: 'Where file bytes go. Unset: s3 when MINIO_URL is set, else local disk under DATA_DIR/files.',
    parse: z.enum(['local', 's3']).optional(),
  }),
  minioUrl: entry({
    env: 'MINIO_URL',
    type: 'http(s)://KEY:SECRET@host:port URL',
    description: 'MinIO or any S3 endpoint, with the access key and secret as user and password.',
    secret: true,
    parse: optionalUrl(['http', 'https']),
  }),
  s3Bucket: entry({
    env: 'S3_BUCKET',
    type: 'string',
    description: 'Bucket for files (created if missing).',
    default: 'im-files',
    parse: z.string().regex(/^[a-z0-9][a-z0-9.-]{2,62}$/, 'must be a valid bucket name'),
  }),
  s3Region: entry({
    env: 'S3_REGION',
    type: 'string',
    description: 'S3 region of the bucket.',
    default: 'us-east-1',
    parse: z.string().min(1),
  }),
  fileMaxBytes: entry({
    env: 'FILE_MAX_BYTES',
    type: 'bytes',
    description: 'Largest upload; enforced while streaming (413 the moment it is passed).',
    default: '104857600',
    parse: positiveInt,
  }),
  fileQuotaBytes: entry({
    env: 'FILE_QUOTA_BYTES',
    type: 'bytes',
    description: 'Storage each user may fill with uploads (413 IM_ERR_QUOTA beyond); shown in GET /api/users/me.',
    default: '5368709120',
    parse: positiveInt,
  }),
  fileUrlTtlSec: entry({
    env: 'FILE_URL_TTL_SEC',
    type: 'seconds',
    description: 'How long a signed file URL (GET /api/files/:id/url) works without credentials.',
    default: '600',
    parse: z.coerce.number().int().min(10).max(86400),
  }),
  fileUnattachedGraceSec: entry({
    env: 'FILE_UNATTACHED_GRACE_SEC',
    type: 'seconds',
    description: 'Uploaded files never attached to a message are removed after this long.',
    default: '86400',
    parse: positiveInt,
  }),
  vapidPublicKey: entry({
    env: 'VAPID_PUBLIC_KEY',
    type: 'base64url',
    description:
      'Web Push VAPID public key. Required in production (with the private key); in development a pair is made and kept in DATA_DIR/.vapid.json.',
    parse: z.string().min(20).optional(),
  }),
  vapidPrivateKey: entry({
    env: 'VAPID_PRIVATE_KEY',
    type: 'base64url',
    description: 'Web Push VAPID private key.',
    secret: true,
    parse: z.string().min(20).optional(),
  }),
  vapidSubject: entry({
    env: 'VAPID_SUBJECT',
    type: 'mailto: or https: URL',
    description: 'Contact the push services may use about this server.',
    default: 'mailto:admin@localhost',
    parse: z.string().regex(/^(mailto:|https:\/\/)/, 'must start with mailto: or https://'),
  }),
  pushProxyUrl: entry({
    env: 'PUSH_PROXY_URL',
    type: 'http(s) URL',
    description:
      'HTTP push proxy (in front of APNs/FCM) that receives one JSON POST per mobile device. Unset: mobile push is off.',
    parse: optionalUrl(['http', 'https']),
  }),
  pushConcurrency: entry({
    env: 'PUSH_CONCURRENCY',
    type: 'count',
    description: 'Notifications in flight at once per push node.',
    default: '64',
    parse: positiveInt,
  }),
  pushTimeoutMs: entry({
    env: 'PUSH_TIMEOUT_MS',
    type: 'milliseconds',
    description:
      'Longest one Web Push or push proxy request may take, connect to last byte (OUTBOUND_TIMEOUT_MS if shorter): push services answer in well under a second, and a destination that does not holds a delivery slot meanwhile.',
    default: '5000',
    parse: positiveInt,
  }),
  pushEncryptWorkers: entry({
    env: 'PUSH_ENCRYPT_WORKERS',
    type: 'count',
    description: 'Worker threads that encrypt Web Push notifications per push node; 0 encrypts on the event loop.',
    default: String(Math.max(1, availableParallelism() - 1)),
    shownDefault: 'cores - 1 (at least 1)',
    parse: z.coerce.number().int().min(0).max(64),
  }),
  webhookMaxWaiting: entry({
    env: 'WEBHOOK_MAX_WAITING',
    type: 'count',
    description:
      'Deliveries an outgoing webhook may have waiting (while its receiver fails); older ones are marked dropped. Lower it for tests.',
    default: '1000',
    parse: positiveInt,
  }),
  webhookDisableAfterMs: entry({
    env: 'WEBHOOK_DISABLE_AFTER_MS',
    type: 'milliseconds',
    description:
      'An outgoing webhook whose deliveries have all failed for this long is disabled until an admin turns it on again. Lower it for tests.',
    default: '86400000',
    parse: positiveInt,
  }),
  webhookConcurrency: entry({
    env: 'WEBHOOK_CONCURRENCY',
    type: 'count',
    description: 'Outgoing webhook deliveries in flight at once per integration node.',
    default: '32',
    parse: positiveInt,
  }),
  smtpUrl: entry({
    env: 'SMTP_URL',
    type: 'smtp(s):// URL',
    description:
      'Mail server e-mail is sent through: smtp://user:pass@host:port (STARTTLS when the server offers it) or smtps:// (TLS from the start). Set with MAIL_FROM. Unset: no e-mail (no verification links, no reset e-mails, no missed-message e-mails; a server admin can still make reset links).',
    secret: true,
    parse: optionalUrl(['smtp', 'smtps']).refine((v) => {
      if (v === undefined) return true;
      const url = URL.canParse(v) ? new URL(v) : undefined;
      return url !== undefined && url.hostname !== '' && (url.pathname === '' || url.pathname === '/');
    }, 'must be smtp(s)://[user:pass@]host[:port]'),
  }),
  mailFrom: entry({
    env: 'MAIL_FROM',
    type: 'address',
    description:
      'Sender of every e-mail: `chat@example.org` or `Example Chat <chat@example.org>`. Required with SMTP_URL.',
    parse: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v === '' ? undefined : v))
      .refine(
        (v) => v === undefined || /^([^<>\r\n]*<)?[^\s@<>]+@[^\s@<>]+\.?[^\s@<>]*>?$/.test(v),
        'must be an address, optionally with a name: Name <name@example.org>',
      ),
  }),
  mailDigestDelayMs: entry({
    env: 'MAIL_DIGEST_DELAY_MS',
    type: 'milliseconds',
    description:
      "When set, every missed-message e-mail waits this long instead of its recipient's choice (10 min, 1 h, a day): for tests and trials.",
    parse: positiveInt.optional(),
  }),
  voice: entry({
    env: 'VOICE',
    type: 'on | off',
    description:
      'Voice and video calls (voice panels, DM calls) through LiveKit. off: joining a call answers 503 and a single instance starts no LiveKit server.',
    default: 'on',
    parse: z.enum(['on', 'off']),
  }),
  livekitUrl: entry({
    env: 'LIVEKIT_URL',
    type: 'ws(s):// URL',
    description:
      "A LiveKit server for calls, as this server's nodes reach it (its API); set with LIVEKIT_API_KEY and LIVEKIT_API_SECRET, and point its webhook at /api/livekit/webhook. Unset on a single instance: it starts livekit-server itself (built by setup) with keys kept in DATA_DIR/livekit-keys.json.",
    parse: optionalUrl(['ws', 'wss']).refine((v) => v === undefined || URL.canParse(v), 'must be a URL'),
  }),
  livekitPublicUrl: entry({
    env: 'LIVEKIT_PUBLIC_URL',
    type: 'ws(s):// URL',
    description:
      "Where browsers reach the LiveKit server (a wss:// address behind TLS in production). Unset: LIVEKIT_URL, or the started server's own address.",
    parse: optionalUrl(['ws', 'wss']).refine((v) => v === undefined || URL.canParse(v), 'must be a URL'),
  }),
  livekitApiKey: entry({
    env: 'LIVEKIT_API_KEY',
    type: 'string',
    description: "The LiveKit server's API key (tokens and webhooks are signed with its secret).",
    parse: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
  }),
  livekitApiSecret: entry({
    env: 'LIVEKIT_API_SECRET',
    type: 'string',
    description: 'The secret of LIVEKIT_API_KEY (at least 32 characters).',
    secret: true,
    parse: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v === '' ? undefined : v))
      .refine((v) => v === undefined || v.length >= 32, 'must be at least 32 characters'),
  }),
  livekitBind: entry({
    env: 'LIVEKIT_BIND',
    type: 'IP address',
    description:
      "The started LiveKit server's listening address (single instance without LIVEKIT_URL). 0.0.0.0 to take calls from other machines (then set LIVEKIT_NODE_IP).",
    default: '127.0.0.1',
    parse: z.ipv4(),
  }),
  livekitNodeIp: entry({
    env: 'LIVEKIT_NODE_IP',
    type: 'IP address',
    description:
      "The address the started LiveKit server gives browsers for media (their ICE candidates): this machine's address as callers reach it. Unset: LIVEKIT_BIND (loopback by default).",
    parse: z.ipv4().optional(),
  }),
  livekitPort: entry({
    env: 'LIVEKIT_PORT',
    type: 'port',
    description: "The started LiveKit server's signalling and API port (TCP).",
    default: '7880',
    parse: port,
  }),
  livekitRtcPort: entry({
    env: 'LIVEKIT_RTC_PORT',
    type: 'port',
    description: "The started LiveKit server's media port: ICE over UDP and over TCP, the same number for both.",
    default: '7881',
    parse: port,
  }),
  requestTimeoutMs: entry({
    env: 'REQUEST_TIMEOUT_MS',
    type: 'milliseconds',
    description: 'Broker call timeout between services.',
    default: '10000',
    parse: positiveInt,
  }),
  shutdownTimeoutMs: entry({
    env: 'SHUTDOWN_TIMEOUT_MS',
    type: 'milliseconds',
    description: 'On SIGTERM/SIGINT, how long to let work drain before exiting anyway.',
    default: '10000',
    parse: positiveInt,
  }),
} as const;

type Schema = typeof configSchema;
export type ConfigKey = keyof Schema;
export type Config = { [K in ConfigKey]: Schema[K] extends ConfigEntry<infer T> ? T : never };
