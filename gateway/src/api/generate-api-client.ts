// `npm run api:client`: writes the typed API client's table of every endpoint
// (packages/api-client/src/operations.generated.ts) from the endpoint table:
// each operation's method, path, where its parameters go, the parameters' type
// (from the same JSON Schema the API document declares) and its answer's type
// (the protocol type its `response` names). A test fails when the file is
// stale. Development only: nothing at run time loads the generator.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Endpoint } from '@im/sdk';
import { format, resolveConfig } from 'prettier';
import { API_ENDPOINTS } from './endpoints.ts';
import { objectSchema, type JsonSchema } from './json-schema.ts';

export const API_CLIENT_FILE = fileURLToPath(
  new URL('../../../packages/api-client/src/operations.generated.ts', import.meta.url),
);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const propertyKey = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));

/**
 * The rule's JSON Schema marked `nullable` where fastest-validator takes a
 * null (the API document's schema does not say it; the caller's type must).
 */
function withNullable(rule: unknown, schema: JsonSchema): JsonSchema {
  if (typeof rule !== 'object' || rule === null) return schema;
  const r = rule as { nullable?: boolean; props?: Record<string, unknown>; items?: unknown };
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  return {
    ...schema,
    ...(r.nullable === true ? { nullable: true } : {}),
    ...(r.props && properties
      ? {
          properties: Object.fromEntries(
            Object.entries(properties).map(([name, property]) => [name, withNullable(r.props![name], property)]),
          ),
        }
      : {}),
    ...(r.items !== undefined && schema.items ? { items: withNullable(r.items, schema.items as JsonSchema) } : {}),
  };
}

/** A JSON Schema (the subset json-schema.ts writes, `nullable` too) as a TypeScript type. */
export function schemaToTs(schema: JsonSchema): string {
  if (schema.nullable === true) return `${schemaToTs({ ...schema, nullable: false })} | null`;
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants) && !schema.properties) return variants.map((v) => `(${schemaToTs(v)})`).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return `Array<${schemaToTs((schema.items ?? {}) as JsonSchema)}>`;
    case 'object':
      return objectToTs(schema);
    default:
      return 'unknown';
  }
}

function objectToTs(schema: JsonSchema, alsoRequired: readonly string[] = []): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set([...((schema.required as string[] | undefined) ?? []), ...alsoRequired]);
  const fields = Object.entries(properties).map(
    ([name, property]) => `${propertyKey(name)}${required.has(name) ? '' : '?'}: ${schemaToTs(property)};`,
  );
  return fields.length > 0 ? `{ ${fields.join(' ')} }` : 'Record<never, never>';
}

const pathParamNames = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);

/**
 * What a caller passes: the path's parameters (always required), and with
 * `withSent` the query's or body's when it has one.
 */
function paramsType(route: Endpoint, withSent = true): string {
  const inPath = pathParamNames(route.path);
  const sent = withSent && (route.input === 'body' || route.input === 'query');
  const others = sent ? Object.keys(route.params).filter((name) => !inPath.includes(name)) : [];
  const picked = Object.fromEntries(
    [...inPath, ...others].filter((name) => name in route.params).map((name) => [name, route.params[name]]),
  );
  return objectToTs(withNullable({ type: 'object', props: picked }, objectSchema(picked, [])), inPath);
}

const answerType = (name: string) =>
  name.endsWith('[]') ? `Array<ApiSchemas['${name.slice(0, -2)}']>` : `ApiSchemas['${name}']`;

function responseType(route: Endpoint): string {
  if (route.raw === 'download') return 'Blob';
  const main = route.status === 204 ? 'void' : answerType(route.response ?? 'Empty');
  return route.accepted ? `${main} | ${answerType(route.accepted.response)}` : main;
}

const operationIdOf = (route: Endpoint) => route.operationId ?? route.action;

const comment = (text: string) => `/** ${text.replace(/\*\//g, '*\\/')} */`;

export async function generateApiClient(routes: readonly Endpoint[] = API_ENDPOINTS): Promise<string> {
  const sorted = [...routes].sort((a, b) => operationIdOf(a).localeCompare(operationIdOf(b)));
  const seen = new Set<string>();
  for (const route of sorted) {
    const id = operationIdOf(route);
    if (seen.has(id)) throw new Error(`two endpoints share the operationId ${id}: give one an operationId`);
    seen.add(id);
  }
  const table = sorted.map((route) => {
    const spec = {
      method: route.method,
      path: route.path,
      input: route.input,
      status: route.status,
      ...(route.raw ? { raw: route.raw } : {}),
    };
    return `${comment(route.summary)}\n${JSON.stringify(operationIdOf(route))}: ${JSON.stringify(spec)},`;
  });
  const types = sorted.map(
    (route) =>
      `${JSON.stringify(operationIdOf(route))}: { path: ${paramsType(route, false)}; params: ${paramsType(route)}; response: ${responseType(route)} };`,
  );
  const source = [
    '// Generated by `npm run api:client` from the endpoint table (gateway/src/api/endpoints.ts): do not edit.',
    "import type { ApiSchemas } from '@im/protocol';",
    "import type { Operation } from './operation.ts';",
    '',
    '/** Every endpoint, by its operationId: how to call it. */',
    `export const OPERATIONS = {\n${table.join('\n')}\n} as const satisfies Record<string, Operation>;`,
    '',
    "/** Every endpoint's path parameters, all its parameters (path, query or body), and its answer. */",
    `export interface OperationTypes {\n${types.join('\n')}\n}`,
    '',
  ].join('\n');
  return format(source, { ...(await resolveConfig(API_CLIENT_FILE)), filepath: API_CLIENT_FILE });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(API_CLIENT_FILE, await generateApiClient());
  console.log(`wrote ${API_CLIENT_FILE}`);
}
