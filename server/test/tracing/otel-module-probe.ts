// Loaded with --import in the nodes the tracing test starts: prints one line
// for each module of the OpenTelemetry SDK (and the project's tracing module)
// the process loads, so the test can tell whether a node without
// OTEL_EXPORTER_OTLP_ENDPOINT loaded any. The API package is left out:
// prom-client loads it in every process, and without an SDK it does nothing.
import { registerHooks } from 'node:module';
import { writeSync } from 'node:fs';

const SDK_MODULE = /\/node_modules\/@opentelemetry\/(?!api\/)|\/src\/tracing\/otel-tracing\.ts$/;

registerHooks({
  load(url, context, nextLoad) {
    if (SDK_MODULE.test(url)) writeSync(2, `opentelemetry module loaded: ${url}\n`);
    return nextLoad(url, context);
  },
});
