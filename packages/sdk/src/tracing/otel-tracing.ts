// Loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set (see tracing.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  context,
  diag,
  DiagLogLevel,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_INSTANCE_ID,
  ATTR_SERVICE_NAME,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { AppConfig } from '../config/load.ts';
import type { Logger } from '../logger.ts';
import { tracingMiddleware } from './broker-spans.ts';
import { traceMongoCommands } from './mongo-spans.ts';
import { traceRedisCommands } from './redis-spans.ts';
import { samplerOf } from './sampler.ts';
import { inTrace, runInSpan } from './spans.ts';
import { serviceNameOf, type TraceCarrier, type Tracing } from './tracing.ts';

/** OTLP/HTTP's path for traces under the collector's base address (as the OpenTelemetry spec adds it). */
const tracesUrl = (endpoint: string) => `${endpoint.replace(/\/+$/, '')}/v1/traces`;

async function exporterFor(config: AppConfig): Promise<SpanExporter> {
  const url = tracesUrl(config.otelExporterOtlpEndpoint!);
  // Only the chosen encoding's exporter is loaded.
  if (config.otelExporterOtlpProtocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter({ url });
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url });
}

export async function createOtelTracing(config: AppConfig, nodeId: string, logger: Logger): Promise<Tracing> {
  const serviceName = serviceNameOf(config.services, config.otelServiceName);
  // The SDK's own troubles (a collector that cannot be reached, spans dropped) go to the log as warnings.
  const warn = (message: string, ...args: unknown[]) =>
    logger.warn(args.length > 0 ? { mod: 'tracing', args } : { mod: 'tracing' }, message);
  const quiet = () => undefined;
  diag.setLogger({ error: warn, warn, info: quiet, debug: quiet, verbose: quiet }, DiagLogLevel.WARN);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: serviceName,
      [ATTR_SERVICE_INSTANCE_ID]: nodeId,
      'im.services': config.services.join(','),
    }),
    sampler: samplerOf(config.otelTracesSampler, config.otelTracesSamplerArg),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: await exporterFor(config),
        scheduledDelayMillis: config.otelBspScheduleDelay,
      }),
    ],
  });
  // One context manager per process (a second node in the same process shares it).
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const tracer: Tracer = provider.getTracer('im-platform');
  const propagator = new W3CTraceContextPropagator();

  const carrierOf = (ctx: Context): TraceCarrier | undefined => {
    if (!inTrace(ctx)) return undefined;
    const carrier: TraceCarrier = {};
    propagator.inject(ctx, carrier, defaultTextMapSetter);
    return carrier;
  };
  const contextOf = (carrier: Record<string, unknown> | undefined): Context =>
    carrier ? propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter) : ROOT_CONTEXT;

  return {
    serviceName,
    brokerMiddleware: tracingMiddleware(tracer, carrierOf, contextOf),

    httpRequest(req: IncomingMessage, res: ServerResponse, method: string, route: string, handle: () => void) {
      const parent = contextOf(req.headers);
      const span = tracer.startSpan(
        `${method} ${route}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            [ATTR_HTTP_REQUEST_METHOD]: method,
            [ATTR_HTTP_ROUTE]: route,
            [ATTR_URL_PATH]: (req.url ?? '/').split('?', 1)[0]!,
          },
        },
        parent,
      );
      // 'close' comes once the answer is out or the client went away, whichever the handler did.
      res.once('close', () => {
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
      context.with(trace.setSpan(parent, span), handle);
    },

    socketRequest(event, handle) {
      const span = tracer.startSpan(
        `socket.io ${event}`,
        { kind: SpanKind.SERVER, attributes: { 'messaging.system': 'socket.io', 'im.event': event } },
        ROOT_CONTEXT,
      );
      return runInSpan(span, ROOT_CONTEXT, handle);
    },

    inSpan(name, attributes, work) {
      const active = context.active();
      if (!inTrace(active)) return work();
      return runInSpan(tracer.startSpan(name, { kind: SpanKind.PRODUCER, attributes }, active), active, work);
    },

    received(name, carrier, work) {
      const parent = contextOf(carrier);
      if (!inTrace(parent)) return work();
      return runInSpan(tracer.startSpan(name, { kind: SpanKind.CONSUMER }, parent), parent, work);
    },

    carrier: () => carrierOf(context.active()),
    traceRedis: (redis) => traceRedisCommands(tracer, redis),
    traceMongo: (connection) => traceMongoCommands(tracer, connection),
    shutdown: () => provider.shutdown(),
  };
}
