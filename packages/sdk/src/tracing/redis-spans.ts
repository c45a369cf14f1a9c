import { context, SpanKind, type Tracer } from '@opentelemetry/api';
import {
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_SYSTEM_NAME,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} from '@opentelemetry/semantic-conventions';
import type { Command, Redis } from 'ioredis';
import { endWhenSettled, inTrace } from './spans.ts';

/**
 * A client span per command `redis` sends inside a trace. Every command,
 * pipelined and scripted ones included, goes through the client's
 * sendCommand, so wrapping it on this one client is enough; the project
 * imports ioredis as ESM, where require-hook instrumentation does not see it.
 */
export function traceRedisCommands(tracer: Tracer, redis: Redis): void {
  const send = redis.sendCommand.bind(redis) as (command: Command, ...rest: unknown[]) => unknown;
  const server = {
    [ATTR_DB_SYSTEM_NAME]: 'redis',
    [ATTR_SERVER_ADDRESS]: redis.options.host ?? 'localhost',
    [ATTR_SERVER_PORT]: redis.options.port ?? 6379,
  };
  redis.sendCommand = ((command: Command, ...rest: unknown[]) => {
    const active = context.active();
    if (!inTrace(active)) return send(command, ...rest);
    const span = tracer.startSpan(
      command.name.toUpperCase(),
      { kind: SpanKind.CLIENT, attributes: { ...server, [ATTR_DB_OPERATION_NAME]: command.name } },
      active,
    );
    const sent = send(command, ...rest);
    endWhenSettled(span, command.promise);
    return sent;
  }) as Redis['sendCommand'];
}
