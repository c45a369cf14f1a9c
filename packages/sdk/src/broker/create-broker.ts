import { hostname } from 'node:os';
import { ServiceBroker, type BrokerOptions } from 'moleculer';
import type { AppConfig } from '../config/load.ts';
import type { Logger } from '../logger.ts';
import { rateLimitMiddleware } from '../rate-limit/middleware.ts';
import { CodePointValidator } from '../validation/code-point-validator.ts';
import type { RateLimits } from '../rate-limit/rate-limits.ts';
import type { Tracing } from '../tracing/tracing.ts';

export interface CreateBrokerOptions {
  config: Pick<AppConfig, 'transporter' | 'namespace' | 'nodeId' | 'requestTimeoutMs' | 'logLevel'>;
  logger: Logger;
  /** Enforced on every local action that declares `rateLimit`. */
  rateLimits?: RateLimits;
  /** Spans for calls, actions and events (OTEL_EXPORTER_OTLP_ENDPOINT). */
  tracing?: Tracing;
  /** Extra broker options (tests use this for middlewares). */
  overrides?: Partial<BrokerOptions>;
}

/**
 * The one way this project makes a broker. No TRANSPORTER: no transit at all,
 * so every call is a local function call. nats://: cluster over NATS, and the
 * registry still prefers an instance on the calling node.
 */
export function createBroker({
  config,
  logger,
  rateLimits,
  tracing,
  overrides = {},
}: CreateBrokerOptions): ServiceBroker {
  const transporter = config.transporter ? transporterFor(config.transporter) : null;
  return new ServiceBroker({
    namespace: config.namespace,
    nodeID: config.nodeId ?? `${hostname()}-${process.pid}`,
    transporter,
    // JSON is readable on the wire and fast enough; events carry small payloads.
    serializer: 'JSON',
    requestTimeout: config.requestTimeoutMs,
    registry: { preferLocal: true, strategy: 'RoundRobin' },
    // A node whose host dies says nothing: calls routed to it time out until it
    // is declared gone. Heartbeats every 5 s and 15 s of silence (moleculer's
    // defaults are 10 and 30) halve that; the fault tests measure it.
    heartbeatInterval: 5,
    heartbeatTimeout: 15,
    // Parameters are validated by each action's schema before its handler runs,
    // string lengths counted as the API document (JSON Schema) counts them.
    validator: new CodePointValidator(),
    logger: {
      type: 'Pino',
      options: {
        level: config.logLevel,
        createLogger: (level: string, bindings: { mod?: string; nodeID?: string }) =>
          logger.child({ mod: bindings.mod }, { level }),
      },
    },
    // The runner handles signals so it can also stop the servers it started.
    skipProcessEventRegistration: true,
    metrics: false,
    tracing: false,
    ...overrides,
    // Tracing last, so it wraps the others: a rate limit's Redis command is inside the action's span.
    middlewares: [
      ...(rateLimits ? [rateLimitMiddleware(rateLimits)] : []),
      ...(overrides.middlewares ?? []),
      ...(tracing ? [tracing.brokerMiddleware] : []),
    ],
  } as BrokerOptions);
}

function transporterFor(url: string): BrokerOptions['transporter'] {
  return {
    type: 'NATS',
    options: {
      url,
      // Keep trying during a NATS restart instead of failing the node.
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    },
  };
}
