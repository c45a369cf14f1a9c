// `npm run api:schemas`: derives the API document's response schemas from
// the protocol's types (ApiSchemas in packages/protocol) and writes them to
// response-schemas.json, which the gateway serves inside /api/openapi.json.
// A test fails when the file is stale. Development only: the running
// gateway reads the JSON and never loads the generator.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';

type JsonSchema = Record<string, unknown>;

const PROTOCOL = fileURLToPath(new URL('../../../packages/protocol/', import.meta.url));
export const RESPONSE_SCHEMAS_FILE = fileURLToPath(new URL('./response-schemas.json', import.meta.url));

/** What response-schemas.json holds. */
export interface ResponseSchemas {
  /** Each ApiSchemas name (what endpoints answer) -> the component it refers to. */
  names: Record<string, string>;
  /** OpenAPI components, one per protocol type the answers use. */
  components: Record<string, JsonSchema>;
}

/** OpenAPI component names allow letters, digits, `.`, `-` and `_`: `Page<Member>` becomes `Page_Member`. */
const componentName = (definition: string) =>
  decodeURIComponent(definition)
    .replace(/[<,]\s*/g, '_')
    .replace(/[^A-Za-z0-9._-]/g, '');

const toComponentRefs = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(toComponentRefs);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string'
          ? `#/components/schemas/${componentName(v.slice('#/definitions/'.length))}`
          : toComponentRefs(v),
      ]),
    );
  }
  return value;
};

export function generateResponseSchemas(): ResponseSchemas {
  const schema = createGenerator({
    path: `${PROTOCOL}src/api-schemas.ts`,
    tsconfig: `${PROTOCOL}tsconfig.json`,
    type: 'ApiSchemas',
    expose: 'export',
    topRef: false,
    // An answer may carry only what the protocol declares.
    additionalProperties: false,
    skipTypeCheck: true,
  }).createSchema('ApiSchemas') as {
    properties: Record<string, { $ref: string }>;
    definitions: Record<string, unknown>;
  };
  const names = Object.fromEntries(
    Object.entries(schema.properties).map(([name, ref]) => [
      name,
      componentName(ref.$ref.slice('#/definitions/'.length)),
    ]),
  );
  const components = Object.fromEntries(
    Object.entries(schema.definitions)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, def]) => [componentName(name), toComponentRefs(def) as JsonSchema]),
  );
  return { names, components };
}

export const serializeResponseSchemas = (schemas: ResponseSchemas): string => `${JSON.stringify(schemas, null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(RESPONSE_SCHEMAS_FILE, serializeResponseSchemas(generateResponseSchemas()));
  console.log(`wrote ${RESPONSE_SCHEMAS_FILE}`);
}
