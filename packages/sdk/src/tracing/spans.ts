import { context, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';

/** Whether `ctx` holds a span: spans are only made inside a trace. */
export const inTrace = (ctx: Context): boolean => trace.getSpan(ctx) !== undefined;

export function markFailed(span: Span, err: unknown): void {
  const error = err instanceof Error ? err : new Error(String(err));
  span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}

/** Ends `span` when `pending` settles (at once if it is no promise), marking it failed on a rejection. */
export function endWhenSettled(span: Span, pending: unknown): void {
  if (!(pending instanceof Promise)) {
    span.end();
    return;
  }
  pending.then(
    () => span.end(),
    (err: unknown) => {
      markFailed(span, err);
      span.end();
    },
  );
}

/**
 * Runs `work` with `span` active under `parent` and ends the span when the
 * work is done (sync or async). What `work` returns is handed back as it
 * is: moleculer reads a call's context off the very promise it made.
 */
export function runInSpan<T>(span: Span, parent: Context, work: () => T): T {
  let result: T;
  try {
    result = context.with(trace.setSpan(parent, span), work);
  } catch (err) {
    markFailed(span, err);
    span.end();
    throw err;
  }
  endWhenSettled(span, result);
  return result;
}
