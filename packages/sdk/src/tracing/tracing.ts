import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import type { Middleware } from 'moleculer';
import type { Connection } from 'mongoose';
import type { AppConfig } from '../config/load.ts';
import type { Logger } from '../logger.ts';
import { SERVICE_NAMES } from '../services.ts';

/** W3C trace context fields (`traceparent`, `tracestate`) as carried in broker meta and NATS headers. */
export type TraceCarrier = Record<string, string>;

/**
 * This node's tracing, present only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 * Code on hot paths asks `tracing?.` and does nothing more when it is absent.
 * Spans are made only inside a trace (an HTTP request starts one): calls,
 * queries and emits of timers and sweeps make no traces of their own.
 */
export interface Tracing {
  readonly serviceName: string;
  /** Broker middleware: client span per call, server span per local action, trace context in ctx.meta. */
  readonly brokerMiddleware: Middleware;
  /** Runs an HTTP request's handler in a server span named after its route, ended when the response closes. */
  httpRequest(req: IncomingMessage, res: ServerResponse, method: string, route: string, handle: () => void): void;
  /** Runs a socket request's handler in a server span of its own: a trace starts there, as at an HTTP request. */
  socketRequest<T>(event: string, handle: () => Promise<T>): Promise<T>;
  /** A span around synchronous `work` in the current trace (none outside a trace). */
  inSpan<T>(name: string, attributes: Record<string, string | number>, work: () => T): T;
  /** Runs `work` in a consumer span continuing the trace `carrier` came with (plainly without one). */
  received<T>(name: string, carrier: TraceCarrier | undefined, work: () => T): T;
  /** The current trace context to send along (undefined outside a trace). */
  carrier(): TraceCarrier | undefined;
  /** Spans for this Redis client's commands. */
  traceRedis(redis: Redis): void;
  /** Spans for this connection's MongoDB commands (it must have been opened with `monitorCommands`). */
  traceMongo(connection: Connection): void;
  /** Sends what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * The service.name of a node running `services`: OTEL_SERVICE_NAME if set;
 * `im-platform` for every service (the single instance); `im-<name>` for
 * one; the names joined in their given order for several
 * (`im-user-group-chat`).
 */
export function serviceNameOf(services: readonly string[], override?: string): string {
  if (override) return override;
  if (SERVICE_NAMES.every((name) => services.includes(name))) return 'im-platform';
  return `im-${services.join('-')}`;
}

/**
 * Starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set. The OpenTelemetry
 * modules are imported here and only here, so a node without it loads none.
 */
export async function startTracing(config: AppConfig, nodeId: string, logger: Logger): Promise<Tracing | undefined> {
  if (!config.otelExporterOtlpEndpoint) return undefined;
  const { createOtelTracing } = await import('./otel-tracing.ts');
  return createOtelTracing(config, nodeId, logger);
}
