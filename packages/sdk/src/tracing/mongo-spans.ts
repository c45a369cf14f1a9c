import { context, SpanKind, SpanStatusCode, type Span, type Tracer } from '@opentelemetry/api';
import {
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_NAMESPACE,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_SYSTEM_NAME,
  ATTR_SERVER_ADDRESS,
} from '@opentelemetry/semantic-conventions';
import type { Connection, mongo } from 'mongoose';
import { inTrace } from './spans.ts';

const keyOf = (e: { address: string; connectionId?: string | number; requestId: number }) =>
  `${e.address} ${e.connectionId ?? ''} ${e.requestId}`;

/**
 * A client span per MongoDB command sent inside a trace, from the driver's
 * command monitoring (the connection must be opened with `monitorCommands`).
 * The driver emits `commandStarted` in the async context of the operation
 * that sent it, so the span hangs under the caller's. No require hooks: the
 * project imports mongoose as ESM, where they do not reach the driver.
 */
export function traceMongoCommands(tracer: Tracer, connection: Connection): void {
  const client = connection.getClient();
  const open = new Map<string, Span>();
  client.on('commandStarted', (e: mongo.CommandStartedEvent) => {
    const active = context.active();
    if (!inTrace(active)) return;
    const target: unknown = e.command[e.commandName];
    const collection = typeof target === 'string' ? target : undefined;
    open.set(
      keyOf(e),
      tracer.startSpan(
        collection ? `${e.commandName} ${collection}` : e.commandName,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            [ATTR_DB_SYSTEM_NAME]: 'mongodb',
            [ATTR_DB_OPERATION_NAME]: e.commandName,
            [ATTR_DB_NAMESPACE]: e.databaseName,
            [ATTR_SERVER_ADDRESS]: e.address,
            ...(collection ? { [ATTR_DB_COLLECTION_NAME]: collection } : {}),
          },
        },
        active,
      ),
    );
  });
  const finish = (e: mongo.CommandSucceededEvent | mongo.CommandFailedEvent, failure?: Error) => {
    const key = keyOf(e);
    const span = open.get(key);
    if (!span) return;
    open.delete(key);
    if (failure) {
      span.recordException(failure);
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
    }
    span.end();
  };
  client.on('commandSucceeded', (e: mongo.CommandSucceededEvent) => finish(e));
  client.on('commandFailed', (e: mongo.CommandFailedEvent) => finish(e, e.failure));
}
