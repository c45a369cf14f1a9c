import { context, SpanKind, trace, type Context, type Tracer } from '@opentelemetry/api';
import { ATTR_RPC_METHOD, ATTR_RPC_SYSTEM_NAME } from '@opentelemetry/semantic-conventions';
import type { Context as BrokerContext, Middleware } from 'moleculer';
import { inTrace, runInSpan } from './spans.ts';
import type { TraceCarrier } from './tracing.ts';

type Opts = { meta?: Record<string, unknown>; [key: string]: unknown } | undefined;
type Send = (name: string, payload: unknown, opts?: unknown) => unknown;

/** Call options with the trace context added to the meta (opts of broadcast may also be a group list). */
function withCarrier(opts: unknown, carrier: TraceCarrier): Opts {
  const base = (Array.isArray(opts) || typeof opts === 'string' ? { groups: opts } : (opts ?? {})) as NonNullable<Opts>;
  return { ...base, meta: { ...base.meta, ...carrier } };
}

/**
 * Broker spans. A call made inside a trace gets a client span on the caller,
 * whose context travels in ctx.meta (`traceparent`, across NATS in the
 * request packet); the callee's local action runs in a server span under it.
 * Events emitted inside a trace carry the context the same way, and their
 * handlers run in consumer spans.
 */
export function tracingMiddleware(
  tracer: Tracer,
  carrierOf: (ctx: Context) => TraceCarrier | undefined,
  contextOf: (carrier: Record<string, unknown> | undefined) => Context,
): Middleware {
  const sendWithContext =
    (next: Send): Send =>
    (name, payload, opts) => {
      const carrier = carrierOf(context.active());
      return carrier ? next(name, payload, withCarrier(opts, carrier)) : next(name, payload, opts);
    };

  return {
    name: 'Tracing',
    call: ((next: Send): Send =>
      (actionName, params, opts) => {
        const active = context.active();
        if (!inTrace(active)) return next(actionName, params, opts);
        const span = tracer.startSpan(
          actionName,
          { kind: SpanKind.CLIENT, attributes: { [ATTR_RPC_SYSTEM_NAME]: 'moleculer', [ATTR_RPC_METHOD]: actionName } },
          active,
        );
        // The context goes in the meta of the call, so the callee's span hangs under this one.
        const carrier = carrierOf(trace.setSpan(active, span))!;
        return runInSpan(span, active, () => next(actionName, params, withCarrier(opts, carrier)));
      }) as unknown as Middleware['call'],

    localAction(next, action) {
      const name = action.name ?? 'action';
      return function traced(this: unknown, ctx: BrokerContext) {
        const parent = contextOf(ctx.meta as Record<string, unknown> | undefined);
        if (!inTrace(parent)) return next.call(this as never, ctx);
        const span = tracer.startSpan(
          name,
          { kind: SpanKind.SERVER, attributes: { [ATTR_RPC_SYSTEM_NAME]: 'moleculer', [ATTR_RPC_METHOD]: name } },
          parent,
        );
        return runInSpan(span, parent, () => next.call(this as never, ctx));
      } as typeof next;
    },

    emit: sendWithContext as unknown as Middleware['emit'],
    broadcast: sendWithContext as unknown as Middleware['broadcast'],

    localEvent(next, event) {
      const name = `receive ${event.name ?? 'event'}`;
      return function traced(this: unknown, ctx: BrokerContext) {
        const parent = contextOf(ctx.meta as Record<string, unknown> | undefined);
        if (!inTrace(parent)) return next.call(this as never, ctx);
        const span = tracer.startSpan(name, { kind: SpanKind.CONSUMER }, parent);
        return runInSpan(span, parent, () => next.call(this as never, ctx));
      } as typeof next;
    },
  };
}
